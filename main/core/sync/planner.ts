/**
 * The rules of a plan: which (domain, signal) fetches of one account are due, in what order they run and
 * how a tick's budget takes them (takeInOrder). The one planner, the job book (jobBook.ts), keeps the jobs
 * between ticks and plans by these rules; they are pure (the caller passes the jobs, the clock reading and
 * how many requests it may spend).
 *
 * Policy:
 * - Each job has a target period (how fresh the user wants it) and a priority weight.
 * - Demand is Σ cost/period (requests per minute). Jobs that carry a tier (the engine's jobs, see
 *   tierAllocation.ts) get their periods from the tiers' shares of the capacity: the alert-bearing signals
 *   take what the domain list, the score and the history leave, at one common period. Jobs without a tier
 *   fall back to the uniform stretch: when demand exceeds the capacity every period is stretched by the
 *   SAME factor demand/capacity.
 * - A job is due when its age since the last success reaches its effective period and no backoff holds it.
 * - Due jobs run in order of urgency = (age / effective period) × priority, within the spendable budget.
 * - Jobs never fetched (first sync, newly added domains, freshly opened panels) come first: by tier (the
 *   domain list, then every domain's alert signals, then scores, then history, so every domain is watched
 *   before any history is backfilled), then grouped by domain so progress moves steadily. In a large
 *   portfolio (tierAllocation.ts) the never-fetched scores and histories come after the due alert jobs
 *   instead, and before the scores' and histories' own due re-reads, all within their room.
 */
import {
  ALERT_PERIOD_FLOOR_MS,
  allocateClasses,
  annotate,
  classesOf,
  demandOf,
  isKeepTier,
  keepCost,
  TIER_RANK,
  TIER_WEIGHT,
  type PlanTier,
} from './tierAllocation.ts';

/** What the planner needs to know about one fetch. */
export interface PlanJob {
  /** Stable identity, e.g. "12:dns_changes". */
  key: string;
  /** Domain id (or null for account-level jobs such as the domain list); groups backfill work. */
  domainId: number | null;
  /** Weight ≥ 1: how much more urgent one period of staleness is than for a weight-1 job. */
  priority: number;
  /** Wanted freshness in milliseconds. */
  targetPeriodMs: number;
  /** Expected requests per fetch (pages), ≥ 1. */
  cost: number;
  /** Epoch ms of the last successful fetch, or null when never fetched. */
  lastSuccessAt: number | null;
  /** Epoch ms before which the job must not run (error backoff, Retry-After), or null. */
  notBefore: number | null;
  /** True when the job must not run at all (missing scope, paused account). */
  stopped?: boolean;
  /** The job's role in the allocation; without one the job is planned by the uniform stretch. */
  tier?: PlanTier;
  /** The period the tier allocation gave the job (set by computeStretch for tiered jobs). */
  periodMs?: number;
  /**
   * Set by the allocation on context and history jobs of a large portfolio (tierAllocation.ts): the
   * requests per minute they may take together. They run after the due alert jobs (orderRank), within it.
   */
  keepRoomPerMinute?: number;
  /**
   * An alert job's share of the common alert period's polls (default 1): 0.25 polls it every fourth period.
   * For signals that see what another alert signal already sees (DNS changes show the record changes that
   * health shows), so the budget goes to the signals nothing else covers.
   */
  alertShare?: number;
}

/** How far the targets must stretch to fit the budget. */
export interface Stretch {
  /** ≥ 1; effective period = target period × factor. */
  factor: number;
  /** Requests per minute the targets would need. */
  demandPerMinute: number;
  /** Requests per minute available to sync (rate limit minus headroom). */
  capacityPerMinute: number;
}

/**
 * How far the targets must stretch so that the total demand fits the sync capacity (the uniform factor,
 * which status reports and untiered jobs are planned by). Tiered jobs also get their periods from the
 * tier allocation, recorded on each job.
 */
export function computeStretch(jobs: readonly PlanJob[], capacityPerMinute: number): Stretch {
  const classes = classesOf(jobs);
  if (classes.some((c) => c.tier !== undefined)) {
    const allocation = allocateClasses(classes, capacityPerMinute);
    for (const job of jobs) annotate(job, allocation);
  }
  return stretchOf(demandOf(classes), capacityPerMinute);
}

/** The uniform stretch for a demand (requests per minute at the targets). */
export function stretchOf(demandPerMinute: number, capacityPerMinute: number): Stretch {
  const capacity = Math.max(capacityPerMinute, Number.EPSILON);
  return { factor: Math.max(1, demandPerMinute / capacity), demandPerMinute, capacityPerMinute };
}

/** The period a job is actually kept at: its tier's period, else its target stretched by the factor. */
export function effectivePeriodMs(job: Pick<PlanJob, 'targetPeriodMs' | 'periodMs'>, factor: number): number {
  if (job.periodMs !== undefined) return job.periodMs;
  return Math.round(job.targetPeriodMs * Math.max(1, factor));
}

/** Age over effective period (∞ when never fetched); ≥ 1 means stale. */
export function staleness(job: PlanJob, now: number, factor: number): number {
  if (job.lastSuccessAt === null) return Number.POSITIVE_INFINITY;
  return Math.max(0, now - job.lastSuccessAt) / effectivePeriodMs(job, factor);
}

/** True when the job may and should run at `now`. */
export function isDue(job: PlanJob, now: number, factor: number): boolean {
  if (job.stopped) return false;
  if (job.notBefore !== null && job.notBefore > now) return false;
  return staleness(job, now, factor) >= 1;
}

/**
 * Where a job stands in the order: never-fetched jobs first, then the due jobs that were fetched before;
 * in a large portfolio (tierAllocation.ts) the context and history jobs come after those: their backfill
 * (never fetched), then their due re-reads. The backfill then takes the share the allocation set aside for
 * it after the due alert polls, not everything (at 5,000 domains it ran first and left the alerts unpolled
 * for 9 hours), and ends in a bounded time: re-reads first would leave it only what they do not take.
 */
function orderRank(job: PlanJob, staleness: number): 0 | 1 | 2 | 3 {
  const fresh = staleness === Number.POSITIVE_INFINITY;
  if (job.keepRoomPerMinute !== undefined && isKeepTier(job.tier)) return fresh ? 2 : 3;
  return fresh ? 0 : 1;
}

/**
 * The order of two never-fetched jobs: by tier, domain (account-level first), priority, key. It does not
 * depend on the clock, so the job book keeps its never-fetched list sorted by it.
 */
export function compareFresh(a: PlanJob, b: PlanJob): number {
  if (a.tier !== undefined && b.tier !== undefined && a.tier !== b.tier)
    return TIER_RANK[a.tier] - TIER_RANK[b.tier];
  const da = a.domainId ?? -1;
  const db = b.domainId ?? -1;
  if (da !== db) return da - db;
  if (a.priority !== b.priority) return b.priority - a.priority;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Orders due jobs: by orderRank; never-fetched ones by compareFresh; others by urgency. */
export function compareUrgency(a: PlanJob, b: PlanJob, now: number, factor: number): number {
  const sa = staleness(a, now, factor);
  const sb = staleness(b, now, factor);
  const ra = orderRank(a, sa);
  const rb = orderRank(b, sb);
  if (ra !== rb) return ra - rb;
  if (ra === 0 || ra === 2) return compareFresh(a, b);
  const ua = sa * weight(a);
  const ub = sb * weight(b);
  if (ua !== ub) return ub - ua;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function weight(job: PlanJob): number {
  return job.tier === undefined ? job.priority : TIER_WEIGHT[job.tier];
}

/** A cursor over jobs in compareUrgency order; the plan merges the heads of several (the job book's lists). */
export interface JobSource<J extends PlanJob> {
  head(): J | undefined;
  next(): void;
}

/** A source over a list while its jobs pass `ok` (the list is ordered, so the first that fails ends it). */
export function listSource<J extends PlanJob>(
  items: readonly J[],
  ok: (job: J) => boolean = () => true,
  prepare: (job: J) => J = (job) => job,
  start = 0,
): JobSource<J> {
  let i = start;
  let current: J | undefined;
  let ready = false;
  const load = () => {
    if (ready) return;
    const job = items[i];
    current = job !== undefined && ok(prepare(job)) ? job : undefined;
    ready = true;
  };
  return {
    head() {
      load();
      return current;
    },
    next() {
      i++;
      ready = false;
    },
  };
}

/**
 * The one rule of a plan: the due jobs, merged from `due` in `cmp` (compareUrgency) order, while they fit
 * (the order is strict: a job that does not fit ends the plan, so an expensive job is never starved by cheap
 * ones); then — when every due job fitted, or only a large portfolio's backfill was held to its room — the
 * alert jobs that may run early, from `early()`, likewise.
 *
 * Early alert jobs are work-conserving: the allocation sets the alert period from what the other tiers would
 * spend at their targets; between their batches (history comes due weekly) that share would otherwise go
 * unspent, while every request the alert tier gets shortens how long a change waits to be seen.
 */
export function takeInOrder<J extends PlanJob>(
  spend: TickSpend,
  cmp: (a: J, b: J) => number,
  due: readonly JobSource<J>[],
  early: () => readonly JobSource<J>[],
): J[] {
  const picked: J[] = [];
  if (spend.left <= 0) return picked;
  const take = (sources: readonly JobSource<J>[]): boolean => {
    for (;;) {
      if (spend.left <= 0) return true;
      let best: JobSource<J> | null = null;
      for (const s of sources) {
        const head = s.head();
        if (head && (!best || cmp(head, best.head()!) < 0)) best = s;
      }
      if (!best) return true;
      const job = best.head()!;
      const taken = spend.take(job);
      if (taken !== 'taken') return taken === 'room';
      picked.push(job);
      best.next();
    }
  };
  if (take(due) && spend.left > 0) take(early());
  return picked;
}

/**
 * What a tick may still spend, and the one rule of taking the next job in order (takeInOrder plans by it). The order is strict: a job that does not fit ends the plan ('full'), so an expensive
 * job is never starved by cheap ones; a large portfolio's context or history job past its room ends the
 * held part ('room': those come last, the rest is the alert reads', early ones included).
 */
export class TickSpend {
  left: number;
  constructor(
    spendable: number,
    private keepLeft: number,
    /** A job dearer than this (the domain list of a large account) is planned as costing it. */
    private readonly burst = Number.POSITIVE_INFINITY,
  ) {
    this.left = Math.floor(spendable);
  }

  /** Takes `job` when it fits: 'taken', else why the plan stops here. */
  take(job: PlanJob): 'taken' | 'room' | 'full' {
    const cost = Math.min(Math.max(1, Math.ceil(job.cost)), this.burst);
    const held = job.keepRoomPerMinute !== undefined && isKeepTier(job.tier);
    if (held && keepCost(job) > this.keepLeft) return 'room';
    if (cost > this.left) return 'full';
    this.left -= cost;
    if (held) this.keepLeft -= keepCost(job);
    return 'taken';
  }
}

/** An alert job that may take budget nothing due wants: fetched before, not held, not polled in the last minute. */
export function mayRunEarly(job: PlanJob, now: number): boolean {
  return (
    job.tier === 'alert' &&
    !job.stopped &&
    job.lastSuccessAt !== null &&
    now - job.lastSuccessAt >= ALERT_PERIOD_FLOOR_MS * Math.max(1, 1 / (job.alertShare ?? 1)) &&
    (job.notBefore === null || job.notBefore <= now)
  );
}

/** The next moment any job becomes due (for "next sync in …" displays), or null when none will. */
export function nextDueAt(jobs: readonly PlanJob[], factor: number): number | null {
  let next: number | null = null;
  for (const job of jobs) {
    if (job.stopped) continue;
    const staleAt = job.lastSuccessAt === null ? 0 : job.lastSuccessAt + effectivePeriodMs(job, factor);
    const at = Math.max(staleAt, job.notBefore ?? 0);
    if (next === null || at < next) next = at;
  }
  return next;
}
