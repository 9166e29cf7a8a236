import { z } from 'zod';
import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import {
  updateLiveChecksArgs,
  type DomainLiveChecks,
  type LiveChecksStatus,
} from '../../../../shared/bridge/liveChecks.ts';
import type { LiveCheckDefinition } from '../../livechecks/definition.ts';
import type { LiveCheckNotice } from '../../livechecks/liveCheckRunner.ts';
import {
  kindEnabled,
  LIVE_CHECK_NOTICES_KEY,
  LIVE_CHECK_SETTINGS_KEY,
  liveCheckSettingsSchema,
  readLiveCheckSettings,
} from '../../livechecks/liveCheckSettings.ts';
import { LIVE_CHECKS } from '../../livechecks/registry.ts';
import { expiringSoon } from '../../livechecks/expiringSoon.ts';
import { appLiveChecks } from '../appLiveChecks.ts';
import { liveCheckShapes } from '../liveCheckShapes.ts';
import type { Mirror } from '../../mirror/types.ts';
import { guard, parse } from '../guard.ts';
import { requireDomain } from '../requireDomain.ts';
import type { Wiring } from '../wiring.ts';

type LiveCheckMethods = Pick<
  BridgeMethods,
  'domainLiveChecks' | 'liveChecksStatus' | 'appLiveChecks' | 'updateLiveChecks' | 'expiringSoon'
>;

/** What the check saw, as its `shown.details` words it (nothing when its stored result no longer reads). */
function seen(check: LiveCheckDefinition, result: unknown): { label: string; text: string }[] {
  if (result === null || result === undefined || !check.shown.details) return [];
  const parsed = check.result.safeParse(result);
  return parsed.success ? check.shown.details(parsed.data) : [];
}

/**
 * Each kind's own options checked against its schema (a blocklist zone that is not a zone name, more than 10
 * zones): refused with the field's path, instead of the stored value silently falling back to the defaults.
 */
const kindOptionsChecked = z
  .object({ kinds: z.record(z.string(), z.record(z.string(), z.unknown())) })
  .passthrough()
  .superRefine((settings, ctx) => {
    for (const check of Object.values(LIVE_CHECKS)) {
      const own = settings.kinds[check.settingsKey];
      if (!own || !check.settings) continue;
      const { enabled: _enabled, ...options } = own;
      const defaults = check.settings.defaults as Record<string, unknown>;
      const parsed = check.settings.schema.safeParse({ ...defaults, ...options });
      for (const issue of parsed.success ? [] : parsed.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: ['kinds', check.settingsKey, ...issue.path],
        });
    }
  });

/** The notices the running checks keep in the mirror (any process may be the one checking). */
export function liveCheckNotices(mirror: Mirror): LiveChecksStatus['notices'] {
  const stored = mirror.getSetting(LIVE_CHECK_NOTICES_KEY);
  if (!stored || typeof stored !== 'object') return [];
  return Object.entries(stored as Record<string, LiveCheckNotice>).map(([check, n]) => ({
    check,
    words: String(n.words),
    since: String(n.since),
  }));
}

/** Settings → Live checks, `authwatch status`'s line. */
export function liveChecksStatus(w: Wiring): LiveChecksStatus {
  const view = w.liveChecks?.view();
  const settings = view?.settings ?? readLiveCheckSettings(w.mirror.getSetting(LIVE_CHECK_SETTINGS_KEY));
  const rows = w.mirror.allLiveChecks();
  return {
    settings,
    running: view?.running ?? false,
    kinds: Object.values(LIVE_CHECKS).map((check) => {
      const counts = { ok: 0, problem: 0, not_applicable: 0, unknown: 0 };
      for (const r of rows) if (r.check === check.name) counts[r.status]++;
      return {
        check: check.name,
        settingsKey: check.settingsKey,
        label: check.shown.label,
        words: check.words,
        enabled: kindEnabled(settings, check),
        periodHours: check.cadence.periodSeconds / 3600,
        counts,
      };
    }),
    notices: liveCheckNotices(w.mirror),
    connectionsLastMinute: view?.stats?.connectionsLastMinute ?? 0,
    caProblem: view?.caProblem ?? null,
  };
}

/** The domain page's Checks tab, Settings' Live checks section. */
export function liveCheckMethods(w: Wiring): LiveCheckMethods {
  const { mirror } = w;
  return {
    domainLiveChecks: (a) =>
      guard((): DomainLiveChecks => {
        const { accountId, domainId } = parse(args.domainRef, a);
        requireDomain(mirror, accountId, domainId);
        const rows = new Map(mirror.liveChecksOfDomain(accountId, domainId).map((r) => [r.check, r]));
        return {
          running: w.liveChecks?.view().running ?? false,
          checks: Object.values(LIVE_CHECKS)
            .filter((c) => c.per === 'domain')
            .map((check) => {
              const row = rows.get(check.name);
              return {
                check: check.name,
                label: check.shown.label,
                words: check.words,
                status: row?.status ?? null,
                result: row?.words ?? null,
                checkedAt: row?.checkedAt ?? null,
                since: row?.since ?? null,
                resultAt: row?.resultAt ?? null,
                seen: seen(check, row?.result),
                ...(row && row.status !== 'not_applicable' ? liveCheckShapes(check.name, row.result) : {}),
                history: row
                  ? mirror.liveCheckHistory(check.name, accountId, domainId).map((h) => ({
                      status: h.status,
                      words: h.words,
                      checkedAt: h.checkedAt,
                    }))
                  : [],
              };
            }),
        };
      }),

    liveChecksStatus: () => guard(() => liveChecksStatus(w)),

    appLiveChecks: () => guard(() => appLiveChecks(w)),

    expiringSoon: (a) =>
      guard(() => {
        const scope = parse(args.accountScope, a);
        const labels = new Map(mirror.listAccounts().map((acc) => [acc.id, acc.label]));
        return expiringSoon(mirror.allLiveChecks(scope?.accountId), labels, w.clock.now());
      }),

    updateLiveChecks: (a) =>
      guard(() => {
        const patch = parse(updateLiveChecksArgs, a ?? {});
        const current = readLiveCheckSettings(mirror.getSetting(LIVE_CHECK_SETTINGS_KEY));
        const next = parse(liveCheckSettingsSchema, { ...current, ...patch });
        parse(kindOptionsChecked, next);
        mirror.setSetting(LIVE_CHECK_SETTINGS_KEY, next);
        w.liveChecks?.restart();
        w.emit({ type: 'settings_changed' });
        return liveChecksStatus(w);
      }),
  };
}
