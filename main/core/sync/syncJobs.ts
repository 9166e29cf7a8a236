import { SIGNAL_NAMES, SIGNALS, signalsWithRole, type SignalName } from '../signals/catalog.ts';
import { SIGNAL_DEFINITIONS } from '../signals/registry.ts';
import type { MirrorDomain, SyncState } from '../mirror/types.ts';
import type { PlanJob } from './planner.ts';
import { GAP_REPAIR_MS, type PlanTier } from './tierAllocation.ts';

// The job lists, tiers and kept periods are the signals' own (signals/defs/*, each definition's plan).

/** Signals polled for every domain at their target period: what the alerts watch. */
export const CORE_SIGNALS: readonly SignalName[] = signalsWithRole('core');
/**
 * History series backfilled for every domain on its first sync and then kept warm at their slow period,
 * so each domain's history can be reviewed offline.
 */
export const HISTORY_SIGNALS: readonly SignalName[] = signalsWithRole('history');
/** Signals fetched when the user opens a domain, then kept warm slowly (their sync state marks them wanted). */
export const ON_DEMAND_SIGNALS: readonly SignalName[] = signalsWithRole('on_demand');
/**
 * The alert-bearing reads (the signals planned in the alert tier): a record removed or restored shows in the
 * domain's health, a registered threat in its failed sources. They share everything the other signals
 * leave, at one common period: the fastest the budget allows (issue 21), since every request they get
 * shortens how long a change waits to be seen.
 */
export const ALERT_SIGNALS: readonly SignalName[] = SIGNAL_NAMES.filter(
  (name) => SIGNAL_DEFINITIONS[name].plan.tier === 'alert',
);

/**
 * Signals whose facts the engine derives from what it already polls, fetched only to backfill, repair a gap
 * or confirm (their plan's keptPeriodMs). The health snapshots it polls are the health history, and the
 * score (protocols_passing / 5 × 10, the interface's rule) and its history are derived from them in the
 * mirror's health write; a record removed or restored shows in health first, and then fetches that
 * domain's DNS changes at once (the record before and after). So after the first sync's backfill these are
 * read weekly: the score to confirm the derivation, the histories and DNS changes incrementally
 * (start_date from the newest date held) for what a poll between two scans could not see. A domain whose
 * health has not been read for GAP_REPAIR_MS (the app was off, the signal failing) has its histories read
 * as soon as health is back.
 */
export const KEPT_PERIOD_MS: Readonly<Partial<Record<SignalName, number>>> = Object.fromEntries(
  SIGNAL_NAMES.flatMap((name) => {
    const kept = SIGNAL_DEFINITIONS[name].plan.keptPeriodMs;
    return kept === undefined ? [] : [[name, kept]];
  }),
);
/** A domain's health unread this long leaves a gap in its derived history: its history series repair it. */
export { GAP_REPAIR_MS };
/** What a gap repair's period is set to: due at once (the history tier's share still bounds the rate). */
export const REPAIR_NOW_MS = 60_000;

/** The period the sync keeps a signal at (before the tier allocation shares the budget). */
export function keptPeriodMs(signal: SignalName): number {
  return KEPT_PERIOD_MS[signal] ?? SIGNALS[signal].periodSeconds * 1000;
}

/** A job's tier in the planner's allocation (tierAllocation.ts). */
export function tierOf(signal: SignalName): PlanTier {
  return SIGNAL_DEFINITIONS[signal].plan.tier;
}
/** A missing scope is re-checked once a day (and at once when the token is replaced). */
export const SCOPE_RECHECK_MS = 24 * 3_600_000;

/** One (domain | account, signal) the account syncs. */
export interface SyncJob extends PlanJob {
  signal: SignalName;
  fqdn: string | null;
  /** The stored state, when the signal was ever planned. */
  state: SyncState | null;
  /** True when the last attempt lacked a scope: excluded from demand until re-checked. */
  scopeMissing: boolean;
}

/** The planner weight of a catalog priority (1 = most urgent → weight 5). */
export function weightOf(priority: number): number {
  return Math.max(1, 6 - priority);
}

/** Job key of a (domain | account, signal). */
export function jobKey(domainId: number | null, signal: SignalName): string {
  return `${domainId ?? 'account'}:${signal}`;
}

function parseInstant(value: string | null | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** What a job takes from its sync state, parsed once per state object (the mirror shares unchanged ones). */
interface StateFacts {
  key: string;
  lastSuccessAt: number | null;
  /** The next-due instant while the signal is failing (its backoff), else null. */
  notBefore: number | null;
  scopeMissing: boolean;
}
const factsOf = new WeakMap<SyncState, StateFacts>();

function stateFacts(state: SyncState): StateFacts {
  let facts = factsOf.get(state);
  if (!facts) {
    const failing = state.consecutiveFailures > 0;
    facts = {
      key: jobKey(state.domainId, state.signal),
      lastSuccessAt: parseInstant(state.lastSuccessAt),
      notBefore: failing ? parseInstant(state.nextDueAt) : null,
      scopeMissing: failing && state.lastError?.code === 'insufficient_scope',
    };
    if (Object.isFrozen(state)) factsOf.set(state, facts);
  }
  return facts;
}

/**
 * True while the domain's history needs a repair: its health went unread for GAP_REPAIR_MS, so the history
 * derived from the health polls has a hole only the history series can fill (read incrementally, from the
 * newest date held). Remembered in `gaps` (history key → when the gap was seen) until the history was read
 * after that, since the health poll that ends the gap comes first.
 */
export function hasGap(health: SyncJob, history: SyncJob, now: number, gaps: Map<string, number>): boolean {
  if (health.lastSuccessAt === null || history.lastSuccessAt === null) return false;
  const seen = gaps.get(history.key);
  if (seen !== undefined) {
    if (history.lastSuccessAt < seen) return true;
    gaps.delete(history.key);
  }
  if (now - health.lastSuccessAt < GAP_REPAIR_MS) return false;
  gaps.set(history.key, now);
  return true;
}

/** Inputs of buildJobs. */
export interface BuildJobsInput {
  domains: readonly MirrorDomain[];
  states: readonly SyncState[];
  now: number;
  /** Histories with a gap to repair, kept by the caller between ticks (see hasGap). */
  gaps?: Map<string, number>;
  /** Each alert signal's share of the common alert period's polls (alertShares.ts); 1 when absent. */
  alertShares?: Readonly<Partial<Record<SignalName, number>>>;
}

/** What makeJob needs beyond the job's identity. */
export interface JobInputs {
  now: number;
  /** Active domains of the account (the domain list's cost is one request per 100). */
  activeCount: number;
  alertShares?: Readonly<Partial<Record<SignalName, number>>>;
}

/** The cost of fetching a signal once (the domain list: one request per 100 domains). */
export function costOf(signal: SignalName, activeCount: number): number {
  const meta = SIGNALS[signal];
  return signal === 'domains'
    ? Math.max(1, Math.ceil(activeCount / 100))
    : meta.parts
      ? Object.keys(meta.parts).length
      : 1;
}

/** One job of the account, from its stored state (null when never planned). */
export function makeJob(
  domainId: number | null,
  fqdn: string | null,
  signal: SignalName,
  state: SyncState | null,
  inputs: JobInputs,
): SyncJob {
  const facts = state ? stateFacts(state) : null;
  const notBefore = facts?.notBefore ?? null;
  const scopeMissing = facts?.scopeMissing ?? false;
  return {
    key: jobKey(domainId, signal),
    domainId,
    fqdn,
    signal,
    state,
    scopeMissing,
    priority: weightOf(SIGNALS[signal].priority),
    tier: tierOf(signal),
    targetPeriodMs: keptPeriodMs(signal),
    cost: costOf(signal, inputs.activeCount),
    lastSuccessAt: facts?.lastSuccessAt ?? null,
    notBefore,
    stopped: scopeMissing && notBefore !== null && notBefore > inputs.now,
    alertShare: inputs.alertShares?.[signal] ?? 1,
  };
}

/** The job key of a stored state. */
export function stateKey(state: SyncState): string {
  return stateFacts(state).key;
}

/**
 * The account's jobs: its domain list, every domain's core and history signals, and wanted panels. Built
 * afresh for a pass, the status and as the oracle of the incremental planner (jobBook.ts, which the ticks
 * use); 6,000 at 1,000 domains, so the per-state parsing is kept with the state and the job objects all
 * have one shape.
 */
export function buildJobs(input: BuildJobsInput): SyncJob[] {
  const stateByKey = new Map<string, SyncState>();
  for (const state of input.states) stateByKey.set(stateFacts(state).key, state);
  const active = input.domains.filter((d) => d.removedAt === null);
  const jobs: SyncJob[] = [];
  const gaps = input.gaps ?? new Map<string, number>();
  const inputs: JobInputs = {
    now: input.now,
    activeCount: active.length,
    ...(input.alertShares ? { alertShares: input.alertShares } : {}),
  };
  const add = (domainId: number | null, fqdn: string | null, signal: SignalName) => {
    jobs.push(makeJob(domainId, fqdn, signal, stateByKey.get(jobKey(domainId, signal)) ?? null, inputs));
  };

  add(null, null, 'domains');
  for (const domain of active) {
    for (const signal of CORE_SIGNALS) add(domain.domainId, domain.fqdn, signal);
    const health = jobs[jobs.length - CORE_SIGNALS.length + CORE_SIGNALS.indexOf('health')]!;
    for (const signal of HISTORY_SIGNALS) {
      add(domain.domainId, domain.fqdn, signal);
      const history = jobs[jobs.length - 1]!;
      if (hasGap(health, history, input.now, gaps)) history.targetPeriodMs = REPAIR_NOW_MS;
    }
  }
  const activeIds = new Map(active.map((d) => [d.domainId, d.fqdn]));
  for (const state of input.states) {
    if (state.domainId === null || !ON_DEMAND_SIGNALS.includes(state.signal)) continue;
    const fqdn = activeIds.get(state.domainId);
    if (fqdn !== undefined) add(state.domainId, fqdn, state.signal);
  }
  return jobs;
}
