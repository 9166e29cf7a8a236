import { SIGNALS, type SignalName } from '../signals/catalog.ts';
import type { MirrorDomain, SyncState } from '../mirror/types.ts';
import type { PlanJob } from './planner.ts';
import type { PlanTier } from './tierAllocation.ts';

/** Signals polled for every domain at their target period: what the alerts watch. */
export const CORE_SIGNALS: readonly SignalName[] = [
  'dns_changes',
  'health',
  'failed_sources',
  'security_score',
];
/**
 * History series backfilled for every domain on its first sync and then kept warm at their slow period,
 * so each domain's history can be reviewed offline.
 */
export const HISTORY_SIGNALS: readonly SignalName[] = ['health_history', 'score_history'];
/** Signals fetched when the user opens a domain, then kept warm slowly (their sync state marks them wanted). */
export const ON_DEMAND_SIGNALS: readonly SignalName[] = (Object.keys(SIGNALS) as SignalName[]).filter(
  (name) => SIGNALS[name].onDemand && !HISTORY_SIGNALS.includes(name),
);
/** The core signals the change alerts come from; they share the budget's rest at one common period. */
export const ALERT_SIGNALS: readonly SignalName[] = ['dns_changes', 'health', 'failed_sources'];

/**
 * DNS changes are polled every fourth alert period: a record removed or restored shows in the domain's
 * health too, which is polled every period, so the budget goes to health and failed sources (threats show
 * nowhere else). At 1,000 domains this brings the p95 change→alert from 1.5× to ~1.3× the minimum.
 */
export const DNS_CHANGES_ALERT_SHARE = 0.25;

/** A signal's share of the alert period's polls (planner.ts, PlanJob.alertShare). */
export function alertShareOf(signal: SignalName): number {
  return signal === 'dns_changes' ? DNS_CHANGES_ALERT_SHARE : 1;
}

/** A job's tier in the planner's allocation (tierAllocation.ts). */
export function tierOf(signal: SignalName): PlanTier {
  if (signal === 'domains') return 'account';
  if (ALERT_SIGNALS.includes(signal)) return 'alert';
  if (CORE_SIGNALS.includes(signal)) return 'context';
  return 'history';
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

/** Inputs of buildJobs. */
export interface BuildJobsInput {
  domains: readonly MirrorDomain[];
  states: readonly SyncState[];
  now: number;
}

/**
 * The account's jobs: its domain list, every domain's core and history signals, and wanted panels. Built
 * afresh every tick (the allocation annotates them); 6,000 at 1,000 domains, so the per-state parsing is
 * kept with the state and the job objects all have one shape.
 */
export function buildJobs(input: BuildJobsInput): SyncJob[] {
  const stateByKey = new Map<string, SyncState>();
  for (const state of input.states) stateByKey.set(stateFacts(state).key, state);
  const active = input.domains.filter((d) => d.removedAt === null);
  const jobs: SyncJob[] = [];
  const listCost = Math.max(1, Math.ceil(active.length / 100));

  const add = (domainId: number | null, fqdn: string | null, signal: SignalName) => {
    const key = jobKey(domainId, signal);
    const state = stateByKey.get(key) ?? null;
    const facts = state ? stateFacts(state) : null;
    const meta = SIGNALS[signal];
    const notBefore = facts?.notBefore ?? null;
    const scopeMissing = facts?.scopeMissing ?? false;
    jobs.push({
      key,
      domainId,
      fqdn,
      signal,
      state,
      scopeMissing,
      priority: weightOf(meta.priority),
      tier: tierOf(signal),
      targetPeriodMs: meta.periodSeconds * 1000,
      cost: signal === 'domains' ? listCost : meta.parts ? Object.keys(meta.parts).length : 1,
      lastSuccessAt: facts?.lastSuccessAt ?? null,
      notBefore,
      stopped: scopeMissing && notBefore !== null && notBefore > input.now,
      alertShare: alertShareOf(signal),
    });
  };

  add(null, null, 'domains');
  for (const domain of active) {
    for (const signal of CORE_SIGNALS) add(domain.domainId, domain.fqdn, signal);
    for (const signal of HISTORY_SIGNALS) add(domain.domainId, domain.fqdn, signal);
  }
  const activeIds = new Map(active.map((d) => [d.domainId, d.fqdn]));
  for (const state of input.states) {
    if (state.domainId === null || !ON_DEMAND_SIGNALS.includes(state.signal)) continue;
    const fqdn = activeIds.get(state.domainId);
    if (fqdn !== undefined) add(state.domainId, fqdn, state.signal);
  }
  return jobs;
}
