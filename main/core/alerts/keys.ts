import type { Protocol } from '../signals/primitives.ts';
import type { AccountAlertKind } from './types.ts';

// Dedupe keys name one episode. They are unique among open alerts (a database index enforces it), so a
// rule that sees the same condition on every poll, or after a restart, refreshes the episode instead of
// notifying again.

/** protocol_disconnected:<account>:<fqdn>:<protocol> — shared by the DNS-event and health paths. */
export function disconnectedKey(accountId: number, fqdn: string, protocol: Protocol): string {
  return `protocol_disconnected:${accountId}:${fqdn}:${protocol}`;
}

/** protocol_restored:<account>:<fqdn>:<protocol>:<id of the disconnected alert it closes>. */
export function restoredKey(accountId: number, fqdn: string, protocol: Protocol, episodeId: number): string {
  return `protocol_restored:${accountId}:${fqdn}:${protocol}:${episodeId}`;
}

/** domain_stopped_resolving:<account>:<fqdn>. */
export function stoppedResolvingKey(accountId: number, fqdn: string): string {
  return `domain_stopped_resolving:${accountId}:${fqdn}`;
}

/** threat_source_appeared:<account>:<fqdn>:<source name>. */
export function threatKey(accountId: number, fqdn: string, sourceName: string): string {
  return `threat_source_appeared:${accountId}:${fqdn}:${sourceName}`;
}

/** score_dropped:<account>:<fqdn>. */
export function scoreDroppedKey(accountId: number, fqdn: string): string {
  return `score_dropped:${accountId}:${fqdn}`;
}

/** health_regressed:<account>:<fqdn>. */
export function healthRegressedKey(accountId: number, fqdn: string): string {
  return `health_regressed:${accountId}:${fqdn}`;
}

/** <kind>:<account>, or scope_missing:<account>:<scope>. */
export function accountAlertKey(accountId: number, kind: AccountAlertKind, scope?: string | null): string {
  return kind === 'scope_missing'
    ? `scope_missing:${accountId}:${scope ?? 'unknown'}`
    : `${kind}:${accountId}`;
}
