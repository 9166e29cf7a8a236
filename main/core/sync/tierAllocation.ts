/**
 * Shares the sync's requests per minute between tiers of jobs, instead of stretching every period alike:
 *
 * - account (the domain list) keeps its target period;
 * - context (security score) and history (health and score history, opened panels) keep their targets as
 *   long as together they take at most half the capacity, else they are stretched alike to fit that half;
 * - alert (DNS changes, health, failed sources: what the change alerts come from) gets everything left, at
 *   ONE common period for every alert job of every domain, never shorter than a minute.
 *
 * A change is told when the next poll of the signal carrying it lands, so its latency is spread over that
 * signal's period; with the alert signals at one common period as short as the budget allows, the
 * worst-told changes (threats, whose failed sources were kept at an hour under the uniform stretch) come as
 * fast as DNS changes. When the budget exceeds what the tiers want at their targets and the floor, the rest
 * stays unspent.
 */
import type { PlanJob } from './planner.ts';

/** The role of a job in the allocation. */
export type PlanTier = 'account' | 'alert' | 'context' | 'history';

/** Alert jobs are never polled more often than this (the service's guard scans are not faster). */
export const ALERT_PERIOD_FLOOR_MS = 60_000;
/** Context and history together never take more than this share of the capacity. */
export const KEEP_SHARE_MAX = 0.5;

const MINUTE_MS = 60_000;

/** Per-tier outcome of an allocation. */
export interface TierAllocation {
  /** Common period of every alert job (per request of cost), ms. */
  alertPeriodMs: number;
  /** ≥ 1: how far context and history are stretched beyond their targets. */
  keepFactor: number;
  /** Requests per minute each tier is given. */
  perMinute: Record<PlanTier, number>;
}

/** An alert job's share of the common period's polls (planner.ts, PlanJob.alertShare), within (0, 1]. */
function shareOf(job: Pick<PlanJob, 'alertShare'>): number {
  const share = job.alertShare ?? 1;
  return share > 0 && share <= 1 ? share : 1;
}

/**
 * Jobs alike for the allocation (same tier, target, cost and share) and how many there are. The allocation
 * and the demand are summed per class, in the classes' key order, so the incremental planner (jobBook.ts),
 * which keeps counts per class, and a full re-plan from the job list get the very same figures.
 */
export interface JobClass {
  key: string;
  tier: PlanTier | undefined;
  targetPeriodMs: number;
  cost: number;
  share: number;
  count: number;
}

/** The class key of a job (jobs of one class always get the same period). */
export function classKeyOf(job: Pick<PlanJob, 'tier' | 'targetPeriodMs' | 'cost' | 'alertShare'>): string {
  return `${job.tier ?? '-'}|${job.targetPeriodMs}|${job.cost}|${job.tier === 'alert' ? shareOf(job) : 1}`;
}

/** A job's class (count 0), for counting. */
export function classOf(job: Pick<PlanJob, 'tier' | 'targetPeriodMs' | 'cost' | 'alertShare'>): JobClass {
  return {
    key: classKeyOf(job),
    tier: job.tier,
    targetPeriodMs: job.targetPeriodMs,
    cost: job.cost,
    share: job.tier === 'alert' ? shareOf(job) : 1,
    count: 0,
  };
}

/** The classes of the jobs that are not stopped, in key order. */
export function classesOf(jobs: readonly PlanJob[]): JobClass[] {
  const classes = new Map<string, JobClass>();
  for (const job of jobs) {
    if (job.stopped) continue;
    const key = classKeyOf(job);
    let c = classes.get(key);
    if (!c) classes.set(key, (c = classOf(job)));
    c.count += 1;
  }
  return sortClasses(classes.values());
}

/** Classes in key order (the order every sum runs in). */
export function sortClasses(classes: Iterable<JobClass>): JobClass[] {
  return [...classes].filter((c) => c.count > 0).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function rate(cost: number, periodMs: number): number {
  return (Math.max(1, cost) * MINUTE_MS) / Math.max(1, periodMs);
}

/** Requests per minute all classes would take at their targets (the uniform stretch's demand). */
export function demandOf(classes: readonly JobClass[]): number {
  let demand = 0;
  for (const c of classes) demand += c.count * rate(c.cost, c.targetPeriodMs);
  return demand;
}

/** The tiers' periods for `capacityPerMinute`, from the classes of the live jobs (see allocateTiers). */
export function allocateClasses(classes: readonly JobClass[], capacityPerMinute: number): TierAllocation {
  let account = 0;
  let keep = 0;
  let alertCost = 0;
  let context = 0;
  let history = 0;
  for (const c of classes) {
    if (c.tier === undefined) continue;
    if (c.tier === 'account') account += c.count * rate(c.cost, c.targetPeriodMs);
    else if (c.tier === 'alert') alertCost += c.count * Math.max(1, c.cost) * c.share;
    else keep += c.count * rate(c.cost, c.targetPeriodMs);
  }
  const capacity = Math.max(capacityPerMinute, Number.EPSILON);
  const keepRoom = Math.max(Number.EPSILON, capacity * KEEP_SHARE_MAX - account);
  const keepFactor = Math.max(1, keep / keepRoom);
  const keepSpent = keep / keepFactor;
  const alertRoom = Math.max(Number.EPSILON, capacity - account - keepSpent);
  const alertPeriodMs = Math.max(ALERT_PERIOD_FLOOR_MS, Math.round((alertCost / alertRoom) * MINUTE_MS));
  for (const c of classes) {
    if (c.tier === 'context') context += c.count * rate(c.cost, c.targetPeriodMs * keepFactor);
    else if (c.tier === 'history') history += c.count * rate(c.cost, c.targetPeriodMs * keepFactor);
  }
  return {
    alertPeriodMs,
    keepFactor,
    perMinute: {
      account,
      alert: alertCost === 0 ? 0 : (alertCost * MINUTE_MS) / alertPeriodMs,
      context,
      history,
    },
  };
}

/** The period the allocation gives a tiered job (the same for every job of its class). */
export function allocatedPeriodMs(
  job: Pick<PlanJob, 'tier' | 'targetPeriodMs' | 'cost' | 'alertShare'>,
  allocation: TierAllocation,
): number {
  if (job.tier === 'account') return job.targetPeriodMs;
  if (job.tier === 'alert')
    return Math.round((allocation.alertPeriodMs * Math.max(1, job.cost)) / shareOf(job));
  return Math.round(job.targetPeriodMs * allocation.keepFactor);
}

/**
 * Computes the tiers' periods for `capacityPerMinute` and records each tiered job's period on the job
 * (`periodMs`), where effectivePeriodMs reads it. Jobs are built afresh for every planning step, so the
 * annotation never outlives the allocation it came from. Untiered and stopped jobs are left alone.
 */
export function allocateTiers(jobs: readonly PlanJob[], capacityPerMinute: number): TierAllocation {
  const allocation = allocateClasses(classesOf(jobs), capacityPerMinute);
  for (const job of jobs)
    if (job.tier !== undefined && !job.stopped) job.periodMs = allocatedPeriodMs(job, allocation);
  return allocation;
}

/** Order of tiers when jobs were never fetched: watch every domain before any history is backfilled. */
export const TIER_RANK: Readonly<Record<PlanTier, number>> = { account: 0, alert: 1, context: 2, history: 3 };

/**
 * Urgency weight of a tier once fetched. The periods already say how often; equal weights inside the alert
 * tier keep the common period common when the budget runs tight (catalog weights would let threats lag).
 */
export const TIER_WEIGHT: Readonly<Record<PlanTier, number>> = {
  account: 5,
  alert: 4,
  context: 2,
  history: 1,
};
