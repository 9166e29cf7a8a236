import type { AlertRuleName } from '../../../shared/bridge/results.ts';
import type { Protocol } from '../signals/primitives.ts';

/**
 * The names of the alerts rules raise (account rules from sync errors, the others from signal writes): the
 * bridge contract's list, which the renderer filters and words by.
 */
export type { AlertRuleName };

/** The account-level alert kinds (raised from sync errors, not from signal data). */
export type AccountAlertKind =
  'token_invalid' | 'scope_missing' | 'plan_not_eligible' | 'api_access_disabled';

/** How loud an alert is: critical and warning alerts are conditions, info alerts are notices. */
export type Severity = 'critical' | 'warning' | 'info';

/** The domain an alert is about: its remote id and name. */
export interface AlertDomain {
  id: number;
  fqdn: string;
}

/**
 * Open an episode, or refresh it. When an open alert with the same dedupe key exists, the store only
 * updates its title, body, details and last_seen: one episode notifies once.
 * A `notice` (protocol_restored) is born resolved: it is news to deliver, not a condition to clear.
 */
export interface RaiseEvent {
  type: 'raise';
  rule: AlertRuleName;
  severity: Severity;
  dedupeKey: string;
  domain: AlertDomain | null;
  title: string;
  body: string;
  /** Rule-owned memory of the episode (e.g. the score before the drop), handed back through the context. */
  details?: Record<string, unknown>;
  notice?: boolean;
}

/** Close the open episode with this dedupe key (no-op when none is open). */
export interface ResolveEvent {
  type: 'resolve';
  dedupeKey: string;
}

/** What a rule returns. */
export type AlertEvent = RaiseEvent | ResolveEvent;

/** An open alert as a rule sees it. */
export interface OpenAlertView {
  id: number;
  rule: AlertRuleName;
  dedupeKey: string;
  firstSeenAt: string;
  details: Record<string, unknown>;
}

/** Thresholds and quiet hours, stored in settings (key `alerts`). */
export interface AlertSettings {
  /** A score_dropped alert fires when the score falls by at least this much between two readings. */
  scoreStep: number;
  /** ...or when it falls below this floor (null: no floor). */
  scoreFloor: number | null;
  /** Notifications are held (not dropped) from startHour to endHour local time; null: no quiet hours. */
  quietHours: { startHour: number; endHour: number } | null;
  /** IANA zone for quiet hours; null: the machine's zone. */
  timeZone: string | null;
  /** Quiet hours hold critical alerts too — only when the user chose so; by default criticals always notify. */
  quietHoldsCriticals: boolean;
  /**
   * Minutes an edit made in the app silences the alerts it is expected to cause on its domain (the protocol
   * it changes); 0: no such silence.
   */
  editSilenceMinutes: number;
}

/** The defaults: step 1.0, floor 5.0 (half the 0–10 scale), no quiet hours. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  scoreStep: 1,
  scoreFloor: 5,
  quietHours: null,
  quietHoldsCriticals: false,
  editSilenceMinutes: 30,
  timeZone: null,
};

/** The latest DNS event per protocol, as stored before this write (lets health rules defer to fresher DNS). */
export type LatestDnsEvents = Partial<
  Record<Protocol, { action: string; occurredAt: string; eventId: number }>
>;

/**
 * What the DNS watch says of each protocol now: its confirmed evidence and the time of the latest answer that
 * agrees with it (lets health rules defer to what DNS answered after the scan).
 */
export type WatchedDns = Partial<Record<Protocol, { status: 'connected' | 'disconnected'; at: string }>>;

/** Everything a rule may look at besides previous and next. Built by the mirror inside the write. */
export interface RuleContext {
  accountId: number;
  /** The account's label, for alert texts. */
  accountLabel: string;
  /** The domain being written, or null for account-level rules. */
  domain: AlertDomain | null;
  /** The write's time (ISO). */
  at: string;
  /** Open alerts of this account (and domain, for domain writes), keyed by dedupe key. */
  openAlerts: ReadonlyMap<string, OpenAlertView>;
  settings: AlertSettings;
  latestDnsEvents: LatestDnsEvents;
  /** The DNS watch's confirmed answers for the domain (empty when it has none). */
  watchedDns?: WatchedDns;
}

/** A rule: a pure function of previous state, next state and context. */
export type AlertRuleFn<P, N> = (previous: P, next: N, context: RuleContext) => AlertEvent[];
