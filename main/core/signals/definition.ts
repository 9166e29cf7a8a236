/**
 * What one polled signal is, in one place: what it fetches, how its answer is decoded and stored, how the
 * planner schedules it, what it is called for people, and what its writes let alert rules compare (the rules
 * say themselves which signals they read: main/core/alerts/rules). Each signal has one
 * module under ./defs holding its definition; ./registry.ts lists them, typed over the signal names, so a
 * signal without a definition (or a definition without a part) is a type error rather than a silent gap.
 */
import type { Database } from 'better-sqlite3';
import type { z } from 'zod';
import type { AlertKind, AlertRuleFn, AnyRuleFn, RuleHandler } from './ruleVocabulary.ts';
import type { DocumentIssue } from './documentCheck.ts';
import type { NotFoundMeaning } from './notFound.ts';

/** The role of a signal's jobs in the allocation of the rate budget (sync/tierAllocation.ts). */
export type PlanTier = 'account' | 'alert' | 'context' | 'history';

/** Where and when a per-domain payload is being stored. */
export interface RowTarget {
  domainPk: number;
  fetchedAt: string;
  /** The call's date window; '' marks the interface's default window. */
  window: { start: string; end: string };
}

/** What the signal's calls are. */
export interface SignalFetch {
  /**
   * Path template relative to the base URL; `{domain_id}` is the remote domain id. For a composed signal
   * this is its first call; see `parts`.
   */
  path: string;
  /**
   * When present, the payload is composed from several calls: the poller GETs each path and passes
   * `{ [key]: data }` (a part that answered 404 is passed as null).
   */
  parts?: Readonly<Record<string, string>>;
  /** True when the endpoint is a page/limit list: the poller concatenates every page's data items. */
  paginated?: boolean;
  /** True when the endpoint accepts start_date/end_date (the write may then carry a window). */
  windowed?: boolean;
  /** True for lists that take only `limit` (default 10): they are asked for the interface's maximum. */
  limitOnly?: boolean;
  /**
   * Windowed signals read incrementally: from the newest remote date the mirror holds (`newest_held`), or
   * from the signal's own last successful read (`last_read`, for series the health polls also write).
   */
  incremental?: 'newest_held' | 'last_read';
}

/** A per-domain signal's calls: what they fetch, and what their 404 means. */
export interface DomainSignalFetch extends SignalFetch {
  /**
   * What a 404 `not_found` from its call (or one of its parts) means: `absent` (not set up: null, so the
   * schema or the part must accept null) or `domain_gone` (the domain list is fetched again). Required, with
   * no default: ./notFound.ts says why.
   */
  notFound: NotFoundMeaning;
}

/**
 * How the planner treats the signal. `account`: the domain list; `core`: polled for every domain at its
 * period; `history`: backfilled for every domain, then kept warm; `on_demand`: fetched when a user opens the
 * domain, then kept warm.
 */
export interface SignalPlan {
  role: 'account' | 'core' | 'history' | 'on_demand';
  /**
   * Its tier in the allocation of the budget (sync/tierAllocation.ts): `alert` for the reads alerts come
   * from (they share what the others leave, at one common period as short as the budget allows),
   * `context`, `history`, or `account` for the domain list.
   */
  tier: PlanTier;
  /** 1 = most urgent. The planner multiplies staleness by a weight derived from it. */
  priority: 1 | 2 | 3 | 4 | 5;
  /** Target refresh period in seconds once the signal is being tracked. */
  periodSeconds: number;
  /** The period the sync keeps it at instead, when its facts are derived from what is polled anyway. */
  keptPeriodMs?: number;
}

/** What a signal's rules may use to read the mirror around a write. */
export interface RuleIo {
  db: Database;
  /** The domain's row id in the mirror. */
  domainPk: number;
  /** True when any of these signals of the domain was read successfully before this write. */
  everFetched(signals: readonly string[]): boolean;
  /** The user's latest edit of a protocol made in this app (rules stay quiet about a change the user made). */
  appEdit(protocol: string): AppEdit;
}

/** The tags the user's latest edit of a protocol in this app set, and when (null: no edit kept). */
export type AppEdit = { changedAt: string; tags: Record<string, string> } | null;

/** When a signal's rule state is read: before the write's rows are stored, or after. */
export type RulePhase = 'before' | 'after';

interface SignalBase<P> {
  /** The v1 scope the calls need (an insufficient_scope error names it as the missing scope). */
  scope: 'domains:read';
  fetch: SignalFetch;
  /** The payload schema (the `data` of the v1 answer); fields the interface names are checked. */
  schema: z.ZodType<P>;
  /** Rules between values of one answer that a schema cannot state (each broken one is an issue). */
  crossCheck?(value: P, out: DocumentIssue[]): void;
  plan: SignalPlan;
  /** What the signal watches, for people (the settings' schedule table; never the internal name). */
  words: string;
}

/** A signal read once per account (the domain list): the mirror stores it with the account's domains. */
export interface AccountSignalDefinition<P> extends SignalBase<P> {
  per: 'account';
}

/** A signal read per domain. */
export interface DomainSignalDefinition<P, S = unknown> extends SignalBase<P> {
  per: 'domain';
  fetch: DomainSignalFetch;
  /** Stores the payload in the mirror's tables (inside the write's transaction). */
  store(db: Database, payload: P, target: RowTarget): void;
  /**
   * SQL giving the newest remote time the mirror holds for the domain as `v` (one `?`: the domain's row
   * id); without it, the signal's last successful read is used.
   */
  lastSeenSql?: string;
  /**
   * What the alert rules compare around a write: read once before the write's rows are stored and once
   * after, from the mirror's tables rather than the payload, so a backfilled old row never looks like news.
   * The rules say themselves which signals they read (alerts/rules/*, `on`): a new rule needs no line here.
   */
  ruleState?(io: RuleIo, phase: RulePhase): S;
  /**
   * Alert rules that read this signal alone, kept in its file: the rule registry (alerts/ruleSet.ts) holds
   * them under their key beside the files of alerts/rules, so a new signal with its rule is one file.
   */
  rules?: Readonly<Record<string, SignalRule>>;
}

/** A rule a signal carries, as the registry holds it (the signal's helper typed it: ./extraSignal.ts). */
export interface SignalRule {
  alerts: Readonly<Record<string, AlertKind>>;
  run: AnyRuleFn;
  /** How its readings come from this signal's write. */
  on: RuleHandler;
}

/** One polled signal. */
export type SignalDefinition<P = unknown> = AccountSignalDefinition<P> | DomainSignalDefinition<P>;

/** A per-domain signal's definition, its payload and rule state types inferred from its schema and reader. */
export function domainSignal<P, S = never>(
  // The payload type comes from the schema alone; the other parts are checked against it.
  definition: Omit<DomainSignalDefinition<P, S>, 'per'>,
): DomainSignalDefinition<P, S> {
  return { per: 'domain', ...definition };
}

/** What an extra signal shows on the domain's Summary tab: a short line from its newest stored value. */
export interface ExtraSignalShown<V> {
  /** The row's label ("MTA-STS policy"). */
  label: string;
  /** The value in words ("enforce", "not set up"). */
  text(value: V): string;
}

/** An extra signal: its answer reduced to one small value kept in the generic store (no table of its own). */
export interface ExtraSignalDefinition<P, V> extends Omit<
  DomainSignalDefinition<P, ExtraReading<V>>,
  'per' | 'store' | 'ruleState' | 'rules'
> {
  /** The value kept from the answer (JSON), the one the Summary shows and the rules compare. */
  value(payload: P): V;
  shown: ExtraSignalShown<V>;
  /**
   * Its rules, by id (camelCase, like a rule file's name): each decides from the value before and after a
   * read (`run(before, after, ctx)`), and the alerts it raises, in words.
   */
  rules?: Readonly<
    Record<
      string,
      { alerts: Readonly<Record<string, AlertKind>>; run: AlertRuleFn<ExtraReading<V>, ExtraReading<V>> }
    >
  >;
}

/** An extra signal's newest stored value and when it was read; null before its first read. */
export type ExtraReading<V> = { value: V; fetchedAt: string } | null;
