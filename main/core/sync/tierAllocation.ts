/**
 * Shares the sync's requests per minute between tiers of jobs, instead of stretching every period alike:
 *
 * - account (the domain list) keeps its target period;
 * - context (security score, BIMI, MTA-STS) and history (health and score history, DNS changes, opened
 *   panels) keep their targets as long as together they fit their room, else they are stretched alike to
 *   fit it. Their room is half the capacity while the alert tier can still meet its target period, but only
 *   CATCH_UP_SHARE of it while it cannot (latency first, issue 21): a large portfolio's backfill and gap
 *   repairs then take a tenth, not everything, of the budget the alerts live on;
 * - while any context or history job was never fetched (the first sync's backfill, a new domain), the
 *   whole room is set aside for that backfill, which the planner runs after the due jobs (planner.ts);
 * - alert (health, failed sources: what the change alerts come from) gets everything left, at ONE common
 *   period for every alert job of every domain, never shorter than a minute.
 *
 * A change is told when the next poll of the signal carrying it lands, so its latency is spread over that
 * signal's period; with the alert signals at one common period as short as the budget allows, the
 * worst-told changes (threats, whose failed sources were kept at an hour under the uniform stretch) come as
 * fast as DNS changes. When the budget exceeds what the tiers want at their targets and the floor, the rest
 * stays unspent.
 *
 * Why the catch-up share: at 5,000 domains the backfill (6 reads a domain, 30,000 requests) ran before any
 * due alert job, 9 hours without a health poll; every domain then had a gap in its derived history, whose
 * repairs took half the capacity, which kept the alert period (6.2 h) above the 6 h that makes a gap, so the
 * histories were read again and again (2.7 a domain in the first day).
 */
import type { PlanJob } from './planner.ts';

/** The role of a job in the allocation. */
export type PlanTier = 'account' | 'alert' | 'context' | 'history';

/** Alert jobs are never polled more often than this (the service's guard scans are not faster). */
export const ALERT_PERIOD_FLOOR_MS = 60_000;
/** Context and history together never take more than this share of the capacity. */
export const KEEP_SHARE_MAX = 0.5;
/**
 * Their share (backfill and gap repairs included) while the alert period is longer than the alert tier's
 * target: 54/minute leaves them 5.4, so 5,000 domains are backfilled in about four days, at most a tenth
 * longer a wait for every change meanwhile.
 */
export const CATCH_UP_SHARE = 0.1;

const MINUTE_MS = 60_000;

/** Per-tier outcome of an allocation. */
export interface TierAllocation {
  /** Common period of every alert job (per request of cost), ms. */
  alertPeriodMs: number;
  /** ≥ 1: how far context and history are stretched beyond their targets. */
  keepFactor: number;
  /** Requests per minute each tier is given at its periods. */
  perMinute: Record<PlanTier, number>;
  /** Requests per minute set aside for never-fetched context and history jobs (0 when there are none). */
  backfillPerMinute: number;
  /** True when the alert period is longer than the alert tier's target, so the catch-up share applies. */
  alertBehind: boolean;
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
  /** How many of them were never fetched. */
  fresh: number;
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
    fresh: 0,
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
    if (job.lastSuccessAt === null) c.fresh += 1;
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

/** True for the tiers whose never-fetched jobs are backfill (run after the due jobs, within their room). */
export function isKeepTier(tier: PlanTier | undefined): boolean {
  return tier === 'context' || tier === 'history';
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
  let alertTargetMs = Number.POSITIVE_INFINITY;
  let backfilling = false;
  let context = 0;
  let history = 0;
  for (const c of classes) {
    if (c.tier === undefined) continue;
    if (c.tier === 'account') account += c.count * rate(c.cost, c.targetPeriodMs);
    else if (c.tier === 'alert') {
      alertCost += c.count * Math.max(1, c.cost) * c.share;
      alertTargetMs = Math.min(alertTargetMs, c.targetPeriodMs);
    } else {
      keep += c.count * rate(c.cost, c.targetPeriodMs);
      if (c.fresh > 0) backfilling = true;
    }
  }
  const capacity = Math.max(capacityPerMinute, Number.EPSILON);
  const roomAt = (share: number) => Math.max(Number.EPSILON, capacity * share - account);
  const alertPeriodAt = (keepSpent: number) =>
    Math.max(
      ALERT_PERIOD_FLOOR_MS,
      Math.round((alertCost / Math.max(Number.EPSILON, capacity - account - keepSpent)) * MINUTE_MS),
    );
  // Behind: even with context and history at their targets (no backfill), the alert period is longer than
  // the alert tier's target. Then the alerts come first and the rest waits within the catch-up share.
  const fullRoom = roomAt(KEEP_SHARE_MAX);
  const alertBehind = alertCost > 0 && alertPeriodAt(Math.min(keep, fullRoom)) > alertTargetMs;
  const keepRoom = alertBehind ? roomAt(CATCH_UP_SHARE) : fullRoom;
  const keepFactor = Math.max(1, keep / keepRoom);
  const keepAtPeriods = keep / keepFactor;
  const keepSpent = backfilling ? Math.max(keepRoom, keepAtPeriods) : keepAtPeriods;
  const alertPeriodMs = alertPeriodAt(keepSpent);
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
    backfillPerMinute: keepSpent - keepAtPeriods,
    alertBehind,
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
