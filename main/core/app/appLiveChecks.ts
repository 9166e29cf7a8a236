import type { AppLiveCheck, AppLiveChecks } from '../../../shared/bridge/liveChecks.ts';
import type { LiveCheckDefinition } from '../livechecks/definition.ts';
import {
  kindEnabled,
  LIVE_CHECK_SETTINGS_KEY,
  readLiveCheckSettings,
} from '../livechecks/liveCheckSettings.ts';
import { nextLookAt } from '../livechecks/nextLook.ts';
import { LIVE_CHECKS } from '../livechecks/registry.ts';
import type { Account } from '../mirror/types.ts';
import type { Wiring } from './wiring.ts';

/**
 * The live checks that belong to no domain, one row per target the runner looks at: each account's API token
 * (`per: 'account'`), and the app's delivery channels (`per: 'global'`, stored under the first account as the
 * runner files it, but shown as the app's). A domain's Checks tab cannot show them; Settings and
 * `authwatch checks` do, with the last look, its result in words and the next.
 */
export function appLiveChecks(w: Wiring): AppLiveChecks {
  const view = w.liveChecks?.view();
  const settings = view?.settings ?? readLiveCheckSettings(w.mirror.getSetting(LIVE_CHECK_SETTINGS_KEY));
  const accounts = w.mirror.listAccounts();
  const checks: AppLiveCheck[] = [];
  for (const check of Object.values(LIVE_CHECKS)) {
    if (check.per === 'domain') continue;
    const enabled = kindEnabled(settings, check);
    if (check.per === 'global') checks.push(row(w, check, enabled, accounts[0] ?? null, null));
    else for (const a of accounts) checks.push(row(w, check, enabled, a, { id: a.id, label: a.label }));
  }
  return { running: view?.running ?? false, checks };
}

function row(
  w: Wiring,
  check: LiveCheckDefinition,
  enabled: boolean,
  filedUnder: Account | null,
  account: AppLiveCheck['account'],
): AppLiveCheck {
  const stored = filedUnder ? w.mirror.liveCheck(check.name, filedUnder.id, null) : null;
  return {
    check: check.name,
    label: check.shown.label,
    words: check.words,
    account,
    enabled,
    status: stored?.status ?? null,
    result: stored?.words ?? null,
    checkedAt: stored?.checkedAt ?? null,
    since: stored?.since ?? null,
    nextAt: enabled && stored ? new Date(nextLookAt(check, stored)).toISOString() : null,
  };
}
