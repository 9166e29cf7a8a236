import { userInfo } from 'node:os';
import { panelRequestKey } from '../../../shared/bridge/panels.ts';
import { readIdentity } from '../accounts/identity.ts';
import type { Mirror } from '../mirror/types.ts';
import type { Wiring } from './wiring.ts';

/** The user a kept GET /auth/me names (the email: unique in a team; else the name), or null. */
function tokenUser(mirror: Mirror, accountId: number): string | null {
  const kept = mirror.getPanel(accountId, panelRequestKey('auth_me'));
  const payload = kept?.payload as { data?: unknown } | null | undefined;
  if (!payload?.data) return null;
  const identity = readIdentity(payload.data);
  return identity.userEmail?.trim() || identity.userName?.trim() || null;
}

function osUser(): string {
  try {
    return userInfo().username || 'unknown user';
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown user';
  }
}

/**
 * Who a silence, an acknowledgement or a route change is recorded as: the shell's own answer when it has
 * one; else the user of the token(s) of the accounts it concerns (every account when it names none), as
 * GET /auth/me said when the account was added or checked; the person logged in to this machine only when
 * no account has such an identity (the command line on a server).
 */
export function lifecycleActor(
  w: Pick<Wiring, 'options' | 'mirror'>,
  accountIds: readonly number[] = w.mirror.listAccounts().map((a) => a.id),
): string {
  const given = w.options.actor?.();
  if (given && given.trim()) return given.trim();
  const users = new Set(accountIds.map((id) => tokenUser(w.mirror, id)).filter((u) => u !== null));
  return users.size > 0 ? [...users].join(', ') : osUser();
}

/** The accounts a set of matchers concerns: the one it names, else those holding its domain, else all. */
export function accountsOfMatchers(
  mirror: Mirror,
  m: { accountId?: number | undefined; domain?: string | undefined },
): number[] {
  const all = mirror.listAccounts().map((a) => a.id);
  if (m.accountId !== undefined) return [m.accountId];
  const domain = m.domain?.toLowerCase();
  if (domain === undefined) return all;
  const holding = all.filter((id) =>
    mirror.listDomains(id, { includeRemoved: true }).some((d) => d.fqdn.toLowerCase() === domain),
  );
  return holding.length > 0 ? holding : all;
}
