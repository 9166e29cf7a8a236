/**
 * The rule engine's vocabulary: what a rule raises and resolves, what it is given, and the words of an alert.
 * It lives below signals/definition.ts because a signal's definition carries its own rules (typed by these),
 * while alerts/ (the engine, above signals/) types a rule by the signals it reads; alerts/types.ts and
 * alerts/ruleDefinition.ts re-export it, so rules import their vocabulary from alerts/ as before.
 */
import type { z } from 'zod';
import type { Alert, AlertRuleName } from '../../../shared/bridge/results.ts';
import type { RuleIo } from './definition.ts';
import type { Protocol } from './primitives.ts';

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

/** An alert's details as they cross the bridge: JSON values by name. */
export type AlertDetails = Alert['details'];

/** One alert a rule raises, in words for people. */
export interface AlertKind {
  /** Short name, for the inbox's rule filter and the alert's details ("DMARC policy weakened"). */
  label: string;
  /** One sentence: when it is raised and when it ends (the filter's hint). */
  description: string;
  /** How loud it usually is (the rule's events carry the severity each one has). */
  severity: Severity;
  /**
   * What its alerts carry (their `details`: the inbox lists them, the rule reads them back from the open
   * episode). The mirror refuses a raise whose details are not this, naming the field.
   */
  details: z.ZodType<AlertDetails>;
  /**
   * What is wrong, as the domain's verdict, the tray and the notification say it ("Threat sending as this
   * domain"); from the alert's details when it depends on them (null: keep the alert's own title). Without
   * it the alert's title is used.
   */
  words?: string | ((details: Record<string, unknown>) => string | null);
}

/** An alert rule's decision function, whatever it compares (the registry holds them all under one type). */
export type AnyRuleFn = AlertRuleFn<never, never>;

/** A rule's handler for one signal, as the mirror calls it (the types checked it against that signal). */
export type RuleHandler = (
  write: { before: unknown; after: unknown; payload: unknown; io: RuleIo },
  ctx: RuleContext,
  run: AnyRuleFn,
) => AlertEvent[];
