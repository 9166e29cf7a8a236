/**
 * Shares the sync's requests per minute between tiers of jobs, instead of stretching every period alike:
 *
 * - account (the domain list) keeps its target period;
 * - context (security score, BIMI, MTA-STS) and history (health and score history, DNS changes, opened
 *   panels) keep their targets as long as together they fit their room (half the capacity), else they are
 *   stretched alike to fit it. Never-fetched ones (the first sync's backfill, new domains) run first;
 * - unless the catch-up is long (latency first, issue 21): while the alert period is longer than the alert
 *   tier's target AND the backfill and gap repairs would, at the whole budget, leave a domain's health
 *   unread for GAP_REPAIR_MS, their room is CATCH_UP_SHARE of the capacity, set aside for them, and the
 *   backfill runs after the due alert reads (planner.ts, orderRank) instead of before them;
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
 * histories were read again and again (2.7 a domain in the first day). A short catch-up (1,000 domains:
 * 6,000 reads, 111 minutes) still runs at once: it delays the alert reads once, by less than that.
 */
import type { PlanJob } from './planner.ts';

/** The role of a job in the allocation. */
export type PlanTier = 'account' | 'alert' | 'context' | 'history';

/** Alert jobs are never polled more often than this (the service's guard scans are not faster). */
export const ALERT_PERIOD_FLOOR_MS = 60_000;
/** Context and history together never take more than this share of the capacity. */
export const KEEP_SHARE_MAX = 0.5;
/**
 * Their share (backfill, gap repairs and the domain list included) during a long catch-up: of 54 a minute
 * 5.4, so the alert period is at most a tenth longer meanwhile (5,000 domains: 3 h 26 min, not 3 h 6 min).
 */
export const CATCH_UP_SHARE = 0.1;
/**
 * A domain's health unread this long leaves a gap in the history derived from it (syncJobs.ts repairs it):
 * a catch-up that would hold the alert reads back this long is long, and is shared out instead.
 */
export const GAP_REPAIR_MS = 6 * 3_600_000;

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
  /** True during a long catch-up: the backfill waits behind the due alert reads, within CATCH_UP_SHARE. */
  catchUpShared: boolean;
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
  /** Requests the backfill (never-fetched context and history) and the gap repairs (wanted at once) take. */
  let catchUp = 0;
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
      const wantedNow = c.targetPeriodMs <= ALERT_PERIOD_FLOOR_MS ? c.count : c.fresh;
      catchUp += wantedNow * Math.max(1, c.cost);
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
  const fullRoom = roomAt(KEEP_SHARE_MAX);
  const steadyPeriodMs = alertPeriodAt(Math.min(keep, fullRoom));
  // Long: at the whole budget the catch-up would leave some domain's health unread for GAP_REPAIR_MS.
  const catchUpMs = (catchUp / Math.max(Number.EPSILON, capacity - account)) * MINUTE_MS;
  const catchUpShared =
    alertCost > 0 && steadyPeriodMs > alertTargetMs && catchUpMs + steadyPeriodMs >= GAP_REPAIR_MS;
  const keepRoom = catchUpShared ? roomAt(CATCH_UP_SHARE) : fullRoom;
  const keepFactor = Math.max(1, keep / keepRoom);
  const keepAtPeriods = keep / keepFactor;
  const keepSpent = catchUpShared && backfilling ? keepRoom : keepAtPeriods;
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
    catchUpShared,
  };
}

/**
 * Records on a tiered job what the allocation gave it: its period (`periodMs`, read by effectivePeriodMs)
 * and, during a long catch-up, that its backfill waits behind the due alert reads (`backfillLast`, read by
 * orderRank). Untiered and stopped jobs are left alone.
 */
export function annotate(job: PlanJob, allocation: TierAllocation): void {
  if (job.tier === undefined || job.stopped) return;
  job.periodMs = allocatedPeriodMs(job, allocation);
  job.backfillLast = allocation.catchUpShared && isKeepTier(job.tier);
}

/** The period the allocation gives a tiered job (the same for every job of its class). */
function allocatedPeriodMs(
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
  for (const job of jobs) annotate(job, allocation);
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
