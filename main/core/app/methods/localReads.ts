import type { AlertSettings } from '../../alerts/types.ts';
import { digestContent, type DigestContent } from '../../delivery/digest.ts';
import type { AckEntry } from '../../mirror/ackStore.ts';
import type { ActiveHold } from '../../mirror/silenceStore.ts';
import type { Account, Alert, ListAlertsQuery, MirrorOverviewRow } from '../../mirror/types.ts';
import type { Wiring } from '../wiring.ts';

/**
 * What the CLI prints beyond the bridge's answers: the mirror's own rows (why an alert ended, domains that
 * left an account, the digest's week). Shells read them here, never from `runtime.mirror`, so the facade
 * stays the one way in.
 */
export interface LocalReads {
  /** Every account of this mirror with its id (the bridge's listAccounts adds token checks and counts). */
  storedAccounts(): Account[];
  /** Saves an account whose token the caller has just checked (GET /auth/me); the token is not stored here. */
  rememberAccount(input: { label: string; baseUrl: string }): Account;
  /** Each domain's posture by the status model, per account; `includeRemoved` keeps domains that left. */
  domainPostures(options?: { includeRemoved?: boolean }): MirrorOverviewRow[];
  /** The domains that left an account's list, still mirrored with their history and alerts. */
  removedDomains(accountId: number): { domainId: number; fqdn: string; removedAt: string }[];
  /** The mirror's alert rows (with why each ended), newest first. */
  alertRecords(query: ListAlertsQuery): Alert[];
  /** The silence or maintenance window holding an open alert back at `now`, if any. */
  alertHold(alert: Alert, now: string): ActiveHold | null;
  /** An alert's acknowledgements and their withdrawals, oldest first. */
  acknowledgementHistory(alertId: number): AckEntry[];
  /** Quiet hours, time zone and the other alert settings. */
  alertSettings(): AlertSettings;
  /** An account's weekly digest up to `now`, as the scheduled one would send it. */
  digestOf(account: Account, now: number): DigestContent;
}

/** The mirror reads behind LocalReads. */
export function localReadMethods(w: Wiring): LocalReads {
  const { mirror } = w;
  return {
    storedAccounts: () => mirror.listAccounts(),
    rememberAccount: (input) => mirror.upsertAccount(input),
    domainPostures: (options) => mirror.overview(undefined, options),
    removedDomains: (accountId) =>
      mirror
        .listDomains(accountId, { includeRemoved: true })
        .filter((d) => d.removedAt !== null)
        .map((d) => ({ domainId: d.domainId, fqdn: d.fqdn, removedAt: d.removedAt! })),
    alertRecords: (query) => mirror.listAlerts(query),
    alertHold: (alert, now) => mirror.silences.silencing(alert, now),
    acknowledgementHistory: (alertId) => mirror.acknowledgements(alertId),
    alertSettings: () => mirror.getAlertSettings(),
    digestOf: (account, now) => digestContent(mirror, account, now),
  };
}
