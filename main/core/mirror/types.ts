import type { OverviewPage } from '../../../shared/bridge/overviewPage.ts';
import type { OverviewPageQuery } from './overviewPage.ts';
import type { DeliveryStore } from './deliveryTypes.ts';
import type { DigestStore } from './digestStore.ts';
import type { SilenceStore } from './silenceStore.ts';
import type { RouteStore } from './routeStore.ts';
import type { MaintenanceStore } from './maintenanceStore.ts';
import type { AckEntry } from './ackStore.ts';
import type { DnsWatchRecord, ServiceView } from './dnsWatchStore.ts';
import type { LiveCheckHistoryEntry, LiveCheckRow, LiveCheckStatus } from './liveCheckStore.ts';
import type { ApexReading } from '../alerts/rules/domainStoppedResolving.ts';
import type { AccountAlertKind, AlertSettings } from '../alerts/types.ts';
import type { SignalName, SignalPayload } from '../signals/catalog.ts';
import type { Protocol } from '../signals/primitives.ts';
import type { JournalEntry } from './changeJournal.ts';
import type { RecordObservation } from './recordObservations.ts';
import type { SenderPoll, SenderSummary } from './senderHistory.ts';
import type { z } from 'zod';
import type { listAlertsArgs, muteArgs } from '../../../shared/bridge/args.ts';
import type {
  accountViewSchema,
  alertSchema,
  domainDetailSchema,
  HistoryKind,
  HistoryRows,
  mirrorDomainSchema,
  MirrorOverviewRow,
  OverviewRow,
  signalAgeSchema,
  syncErrorSchema,
  syncStateSchema,
} from '../../../shared/bridge/results.ts';

export type { AccountAlertKind } from '../alerts/types.ts';

/** A point in time given to the mirror: epoch milliseconds, an ISO string or a Date. Stored as ISO UTC. */
export type Instant = number | string | Date;

/** The mirror's only source of "now" (structurally compatible with the API client's clock). */
export interface MirrorClock {
  /** Milliseconds since the epoch. */
  now(): number;
}

// The rows the mirror answers with are the bridge's results (shared/bridge/results.ts), inferred from its
// schemas rather than restated: what main stores is what the renderer is promised, by construction.

/** A watched account: a label and a base URL. The token lives in the SecretStore, never here. */
export type Account = z.infer<typeof accountViewSchema>;

/** A domain of an account as the mirror knows it. `domainId` is always the remote (interface) id. */
export type MirrorDomain = z.infer<typeof mirrorDomainSchema>;

/** A failed call as the poller reports it (the fields of an ApiError, without the token, ever). */
export interface SyncErrorInput {
  /** HTTP status, 0 when no answer came. */
  status: number;
  code: string;
  message: string;
  requestId: string;
  retryable: boolean;
  /** The scope an insufficient_scope answer lacked, when known. */
  missingScope?: string | null;
}

/** The last error of a signal, as stored. */
export type SyncError = z.infer<typeof syncErrorSchema>;

/** Freshness and health of one (account, domain|account-level, signal). */
// The bridge carries a signal's name as a string; in the engine it is a key of the registry.
export type SyncState = Omit<z.infer<typeof syncStateSchema>, 'signal'> & { signal: SignalName };

/**
 * Why an alert ended: its cause ended (the service's data says so: resolvedAt is set), its domain left the
 * account's list (unresolved: it continues if the domain returns), the user acknowledged it (unresolved
 * until its cause ends), or it was a notice (news, born resolved).
 */
export type AlertEndReason = NonNullable<Alert['endReason']>;

/** An alert episode ("muted" in suppressed: raised while its domain was muted, recorded, never notified). */
export type Alert = z.infer<typeof alertSchema>;

/** One row of the delivery log. */
export interface AlertDelivery {
  alertId: number;
  channel: string;
  deliveredAt: string;
}

/** Input of writeSignal. */
export interface WriteSignalInput<S extends SignalName = SignalName> {
  accountId: number;
  /** Remote domain id; null for account-level signals (domains). */
  domainId: number | null;
  signal: S;
  /** The decoded payload (decodeSignal's value). */
  payload: SignalPayload<S>;
  fetchedAt: Instant;
  /** The start_date/end_date the call used (YYYY-MM-DD), for windowed signals. */
  window?: { start: string; end: string };
  /** When to fetch again; default fetchedAt + the state's period. */
  nextDueAt?: Instant;
  /**
   * The domain list only: entries of the answer set apart (they break the interface on their own). Their
   * known domains stay as they were (not removed), and the words are kept on the list's sync state.
   */
  skipped?: { words: string[]; ids: number[] };
}

/** What a write or an error record changed in the alert list. */
export interface WriteResult {
  /** Episodes opened by this call (each is new: an already-open episode is refreshed, not returned). */
  alerts: Alert[];
  /** Episodes this call closed. */
  resolved: Alert[];
}

/** Input of recordSyncError. */
export interface RecordSyncErrorInput {
  accountId: number;
  domainId: number | null;
  signal: SignalName;
  error: SyncErrorInput;
  at: Instant;
  nextDueAt?: Instant;
}

/** Input of raiseAccountAlert. */
export interface RaiseAccountAlertInput {
  accountId: number;
  kind: AccountAlertKind;
  /** For scope_missing: the scope the token lacks. */
  missingScope?: string | null;
  /** The server's words, shown under the alert's own text. */
  message?: string;
  at?: Instant;
}

/** Input of setNextDue. */
export interface SetNextDueInput {
  accountId: number;
  domainId: number | null;
  signal: SignalName;
  nextDueAt: Instant | null;
  periodSeconds?: number;
}

/** How fresh one signal of a domain is (ageSeconds: since lastSuccessAt at query time). */
export type SignalAge = z.infer<typeof signalAgeSchema>;

// One name, one row: MirrorOverviewRow carries each signal's age (engine, CLI, export, metrics); the
// bridge's OverviewRow is the window's, with its data age as one time (`dataAt`).
export type { MirrorOverviewRow, OverviewRow };

/** Everything the mirror holds about one domain, for the domain screen: the stored answers, typed. */
export type DomainDetail = z.infer<typeof domainDetailSchema>;

/** Which history to read. */
export type { HistoryKind } from '../../../shared/bridge/results.ts';

/** A history query; rows come oldest first, `limit` keeps the newest ones. */
export interface HistoryQuery {
  accountId: number;
  domainId: number;
  since?: Instant;
  until?: Instant;
  limit?: number;
}

/** The row type of each history kind (health, measured or derived score, mail volume, DNS events). */
export type { HistoryRows } from '../../../shared/bridge/results.ts';

/** Where a reader of a list's changes (syncStatesSince, domainsSince) stands. */
export interface RowCursor {
  epoch: number;
  offset: number;
}

/** The rows written since a cursor, or the whole list (`full`) when there was no cursor or it is stale. */
export type RowChanges<T> =
  { full: true; rows: T[]; cursor: RowCursor | null } | { full: false; rows: T[]; cursor: RowCursor };

/**
 * Filter of listAlerts, rows newest first: the bridge's arguments (shared/bridge/args.ts), plus what only the
 * engine asks. `since`: only alerts raised or resolved at or after this instant (the weekly digest's week);
 * older alerts still open are left out too. `limit`: how many of the newest, default 100; `'all'` for every
 * alert of the filter (an export, the digest's week: a week at 1,000 domains raises ~10,200 alerts, and a cap
 * would silently drop the week's first ones).
 */
export type ListAlertsQuery = Omit<NonNullable<z.infer<typeof listAlertsArgs>>, 'limit'> & {
  since?: string;
  limit?: number | 'all';
};

/** Input of muteDomain (until null: until unmuted), as the bridge takes it. */
export type MuteDomainInput = z.infer<typeof muteArgs>;

/**
 * What an edit expects the protocol's record to become once the service has checked it again (kept with the
 * pending edit; the status model judges the evidence against it):
 * - present: published, and when `tags` is given carrying those tag values (a DMARC policy change);
 * - absent: removed;
 * - checked: no prediction about the record (an SPF include lives in the hosted record the domain already
 *   points to): the next scan after the edit settles it.
 */
export type Expectation =
  { kind: 'present'; tags?: Record<string, string> } | { kind: 'absent' } | { kind: 'checked' };

/** Input of writeDnsWatch: the latest answers for some records of one domain. */
export interface DnsWatchWrite {
  accountId: number;
  /** The domain's remote id. */
  domainId: number;
  records: DnsWatchRecord[];
  /** The domain's own name, when the watch's confirmed view of it changed (or is first told this run). */
  apex?: { before: ApexReading | null; after: ApexReading };
}

/** Input of writeLiveCheck: one attempt of one live check (main/core/livechecks) on one target. */
export interface LiveCheckWrite {
  check: string;
  accountId: number;
  /** The domain's remote id; null for per-account checks. */
  domainId: number | null;
  status: LiveCheckStatus;
  words: string;
  /** What the probe saw (`ok`/`problem`); null when the check no longer applies; absent when `unknown`. */
  result?: unknown;
  /** The DNS watch's record value this attempt ran after. */
  dnsSeen: string | null;
}

/**
 * The local mirror: every read the UI does and every write the pollers do. All methods are synchronous
 * (better-sqlite3); each write method is one transaction, or one savepoint of it inside `batch` (a sync tick
 * stores all its writes in one transaction).
 */
export interface Mirror {
  /** Delivery channels and the outbox (main/core/delivery sends from it). */
  readonly delivery: DeliveryStore;
  /** Weekly digest schedules (main/core/delivery/digestRunner.ts mails them). */
  readonly digests: DigestStore;
  /** Silences, the alerts they hold back from every channel, and the lifecycle's audit. */
  readonly silences: SilenceStore;
  /** The ordered routing table (mirror/routing.ts reads it for every alert event). */
  readonly routes: RouteStore;
  /** Recurring maintenance windows (open ones act as silences). */
  readonly maintenance: MaintenanceStore;
  /**
   * One transaction: the alerts silences held whose silence is over and that are still open and
   * unacknowledged get their outbox rows now (once); the rest are let go. Returns those to notify.
   */
  releaseSilenced(at?: Instant): Alert[];
  /**
   * One transaction: the escalations and reminders the routing table owes now (mirror/escalation.ts)
   * queued in the outbox and remembered. Never for a silenced or acknowledged alert. Returns rows queued.
   */
  escalateDue(at?: Instant): number;
  /**
   * One transaction: alert.silenced / alert.unsilenced queued for the told channels of routes that ask for
   * them, when a silence or window starts or stops holding an open alert (once each). Returns rows queued.
   */
  noteSilences(at?: Instant): number;
  /** Create an account, or update the base URL of the account with this label (or, with id, rename it). */
  upsertAccount(input: { id?: number; label: string; baseUrl: string }): Account;
  /** Every account, by label. */
  listAccounts(): Account[];
  /** Remove an account and everything mirrored for it. Returns false when it did not exist. */
  removeAccount(id: number): boolean;
  /** Pause polling of an account (reason), or resume it (null). */
  setAccountPaused(id: number, reason: string | null): void;
  /** The account's domains (removed ones only with includeRemoved). */
  listDomains(accountId: number, options?: { includeRemoved?: boolean }): MirrorDomain[];

  /** Store a fetched signal, mark it fresh, run the alert rules: all in one transaction. */
  writeSignal<S extends SignalName>(input: WriteSignalInput<S>): WriteResult;
  /**
   * Runs `writes` as ONE transaction, one commit (one fsync of the WAL): the write methods called inside
   * become savepoints, so a write that throws rolls back alone (its error reaches the caller's catch) while
   * the others commit together. A sync tick stores all its fetched signals this way. Throws only when the
   * commit itself fails, and then nothing of the batch is stored.
   */
  batch<T>(writes: () => T): T;
  /** Record a failed fetch on the signal's sync state (data untouched); raises account alerts for auth errors. */
  recordSyncError(input: RecordSyncErrorInput): WriteResult;
  /** Raise an account-level alert explicitly (e.g. after a token check). */
  raiseAccountAlert(input: RaiseAccountAlertInput): WriteResult;
  /** Every sync state of the account. */
  getSyncStates(accountId: number): SyncState[];
  /**
   * The account's sync states written since `cursor` (each once), or all of them when the cursor is null
   * or stale: the sync keeps its jobs between ticks and pays for what changed.
   */
  syncStatesSince(accountId: number, cursor: RowCursor | null): RowChanges<SyncState>;
  /** The account's domains (removed ones included) written since `cursor`, as syncStatesSince. */
  domainsSince(accountId: number, cursor: RowCursor | null): RowChanges<MirrorDomain>;
  /**
   * A new token was stored: signals stopped for a missing scope become due now, and the open scope_missing
   * alerts of the scopes in `grantedScopes` (what the new token holds) are resolved.
   */
  clearScopeHolds(accountId: number, grantedScopes: readonly string[], at?: Instant): WriteResult;
  /** Set when a signal is next due (and optionally its period). */
  setNextDue(input: SetNextDueInput): void;
  /**
   * The newest remote time the mirror holds for the signal (DNS events: occurred_at; health and score
   * history: scanned_at; score: computed_at; mail volume: the last date; others: last success), or null.
   */
  lastSeen(accountId: number, signal: SignalName, domainId: number | null): string | null;

  /**
   * Every domain with its posture, open alerts and data age; all accounts when no id. Domains that left
   * the list only with includeRemoved (their history is kept), marked by removedAt.
   */
  overview(accountId?: number, options?: { includeRemoved?: boolean }): MirrorOverviewRow[];
  /**
   * The overview as the window shows it (listed domains only): each domain's data age as one time, the
   * newest success of any of its signals (null: none yet), instead of every signal's age.
   */
  windowOverview(accountId?: number): OverviewRow[];
  /**
   * One screen of the window's overview: the headline over every listed domain of the scope and the rows
   * from `offset` in the table's order (search, filters and sort over all of them); only those rows carry
   * their status and sync states.
   */
  overviewPage(query: OverviewPageQuery): OverviewPage;
  /** Everything mirrored about one domain, or null when unknown. */
  domainDetail(accountId: number, domainId: number): DomainDetail | null;
  /**
   * Remember a successful write of a protocol until the evidence confirms or contradicts it (replaces an
   * older pending change of the same protocol). Its baseline is the newest evidence held now.
   */
  recordPendingChange(input: {
    accountId: number;
    domainId: number;
    protocol: Protocol;
    summary: string;
    expect: Expectation;
    at?: Instant;
  }): void;
  /** A history series of a domain, oldest first. */
  history<K extends HistoryKind>(kind: K, query: HistoryQuery): HistoryRows[K][];

  /** Alerts, newest first. */
  listAlerts(query?: ListAlertsQuery): Alert[];
  /**
   * Every alert (resolved ones too) of each scope — account and domain, or account and fqdn for account-level
   * alerts — that holds an unresolved alert, newest first: every alert of every open incident, however long
   * the history. Optionally of one account, or one domain (remote id, with accountId).
   */
  listAlertsOfOpenScopes(query?: { accountId?: number; domainId?: number }): Alert[];
  /** Every value of a domain's protocol record the mirror holds, oldest first (for a DNS alert's before/after). */
  recordObservations(accountId: number, domainId: number, protocol: Protocol): RecordObservation[];
  /** The domain's senders now (threats, then failing, then by volume), each with its recent polls. */
  domainSenders(accountId: number, domainId: number): SenderSummary[];
  /** Every poll of one sender of the domain, oldest first. */
  senderHistory(accountId: number, domainId: number, source: string): SenderPoll[];
  /** One alert by id, or null. */
  getAlert(id: number): Alert | null;
  /** Mark alerts as seen by the user: they are not (or no longer) notified. */
  acknowledgeAlerts(ids: number[], at?: Instant): void;
  /**
   * Acknowledge one alert as someone, with an optional note (kept in its history, audited); channels told
   * of it get an `alert.acknowledged` update the first time. Throws MirrorError unknown_alert.
   */
  acknowledge(id: number, by: { actor: string; note: string | null }, at?: Instant): Alert;
  /** Take an acknowledgement back: the alert is open and unacknowledged again; channels told of it hear so. */
  unacknowledge(id: number, actor: string, at?: Instant): Alert;
  /** An alert's acknowledgements and withdrawals, oldest first. */
  acknowledgements(id: number): AckEntry[];
  /** Hold an alert's notification until a time; an open, delivered alert is notified again then. */
  snoozeAlert(id: number, until: Instant): void;
  /** Mute a domain: alerts raised while muted are recorded but never notified. */
  muteDomain(input: MuteDomainInput): void;
  /** Lift a domain's mute. */
  unmuteDomain(accountId: number, domainId: number): void;
  /** Alerts a notifier should deliver now: undelivered, not acknowledged/snoozed/muted, outside quiet hours. */
  pendingDeliveries(now?: Instant): Alert[];
  /** Record that alerts were delivered on a channel (delivery log + delivered state). */
  markDelivered(ids: number[], channel: string, at?: Instant): void;
  /** The delivery log of an alert. */
  deliveries(alertId: number): AlertDelivery[];

  /** A stored setting (JSON value), or undefined. */
  getSetting(key: string): unknown;
  /** Store a setting (any JSON value). */
  setSetting(key: string, value: unknown): void;
  /** Alert thresholds and quiet hours, with defaults filled in. */
  getAlertSettings(): AlertSettings;
  /** Change some alert settings; returns the full result. Invalid values throw a MirrorError. */
  setAlertSettings(patch: Partial<AlertSettings>): AlertSettings;

  /** A kept on-demand panel answer (see shared/bridge/panels.ts), or null. */
  getPanel(accountId: number, requestKey: string): { fetchedAt: string; payload: unknown } | null;
  /** Keep an on-demand panel answer for offline review. */
  putPanel(input: {
    accountId: number;
    requestKey: string;
    panel: string;
    domainId: number | null;
    payload: unknown;
    fetchedAt?: Instant;
  }): { fetchedAt: string; payload: unknown };
  /** Every kept answer of one panel for the account (and domain), newest first (what the mirror knows). */
  panelsNamed(
    accountId: number,
    panel: string,
    domainId: number | null,
  ): { fetchedAt: string; payload: unknown }[];
  /** Keep what one of the app's edits changed, by its request id (the audit log's before → after). */
  recordChange(accountId: number, entry: JournalEntry): void;
  /** What the journal holds for these request ids. */
  journalEntries(accountId: number, requestIds: readonly string[]): JournalEntry[];

  /**
   * Store the DNS watch's answers (all writes in one transaction); where a record's confirmed evidence
   * changed, the protocol rules run on it as on the service's health (one episode per condition).
   */
  writeDnsWatch(writes: DnsWatchWrite[], at?: Instant): WriteResult;
  /** The DNS watch's latest answers for a domain. */
  dnsWatchRecords(accountId: number, domainId: number): DnsWatchRecord[];
  /** What the service's health scans say of the domain's protocols (to set beside the DNS watch). */
  serviceProtocolView(accountId: number, domainId: number): ServiceView | null;
  /** How fresh the DNS watch is across every live domain. */
  dnsWatchSummary(): {
    records: number;
    oldestCheckedAt: string | null;
    newestCheckedAt: string | null;
    unknown: number;
  };

  /**
   * Store one live check's attempt; unless it is `unknown` (no evidence), the check's rules run on its
   * reading before and after, in the same transaction (alerts as any rule raises them).
   */
  writeLiveCheck(write: LiveCheckWrite, at?: Instant): WriteResult;
  /** The latest attempt of one check on one target (domainId null: the account's), or null. */
  liveCheck(check: string, accountId: number, domainId: number | null): LiveCheckRow | null;
  /** The service's newest SPF lookup count for a domain (what the SPF check sets its own count beside). */
  serviceSpfCount(accountId: number, domainId: number): { count: number; at: string } | null;
  /** A polled extra signal's newest value for a domain (the VMC the expiry check judges daily), or null. */
  extraSignalValue(
    accountId: number,
    domainId: number,
    signal: string,
  ): { value: unknown; fetchedAt: string } | null;
  /** The sending IPs the service reports for a domain (TLS-RPT's sending MTAs), for the blocklist check. */
  reportedSendingIps(accountId: number, domainId: number): string[];
  /** Every live check's latest result for a domain. */
  liveChecksOfDomain(accountId: number, domainId: number): LiveCheckRow[];
  /** Every latest live check result of live domains and accounts (one account's, or all). */
  allLiveChecks(accountId?: number): LiveCheckRow[];
  /** The changes of one check on one target, newest first. */
  liveCheckHistory(check: string, accountId: number, domainId: number | null): LiveCheckHistoryEntry[];

  /** Close the database (checkpoints the WAL). */
  close(): void;
}
