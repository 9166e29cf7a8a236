/**
 * Shares the sync's requests per minute between tiers of jobs, instead of stretching every period alike:
 *
 * - account (the domain list) keeps its target period (in a large portfolio, at least the alert period);
 * - context (security score, BIMI, MTA-STS) and history (health and score history, DNS changes, opened
 *   panels) keep their targets as long as together they fit their room (half the capacity), else they are
 *   stretched alike to fit it. Never-fetched ones (the first sync's backfill, new domains) run first;
 * - unless the portfolio is large (latency first, issue 21): while the alert period is longer than the
 *   alert tier's target AND reading every context and history job once (the first sync's backfill, or
 *   every gap repair after the app was off) would, at the whole budget, leave a domain's health unread for
 *   GAP_REPAIR_MS (from about 2,400 domains at 54 a minute), their room is LARGE_PORTFOLIO_SHARE of the
 *   capacity, set aside for them, stretched alike to fit it; their backfill runs after the due alert reads,
 *   and before their own periodic re-reads (planner.ts, orderRank), so it ends in a bounded time;
 * - alert (health, failed sources: what the change alerts come from) gets everything left, at ONE common
 *   period for every alert job of every domain, never shorter than a minute.
 *
 * A change is told when the next poll of the signal carrying it lands, so its latency is spread over that
 * signal's period; with the alert signals at one common period as short as the budget allows, the
 * worst-told changes (threats, whose failed sources were kept at an hour under the uniform stretch) come as
 * fast as DNS changes. When the budget exceeds what the tiers want at their targets and the floor, the rest
 * stays unspent.
 *
 * Why the large-portfolio share: at 5,000 domains the backfill (then 6 reads a domain, 30,000 requests) ran
 * before any due alert job, 9 hours without a health poll; every domain then had a gap in its derived
 * history, whose repairs took half the capacity, which kept the alert period (6.2 h) above the 6 h that
 * makes a gap, so the histories were read again and again (2.7 a domain in the first day). Even once
 * backfilled, keeping every weekly read and MTA-STS every 2 days at 5,000 domains takes 4.2 a minute (8 %
 * of the budget), which a round-robin over the alert reads alone spends on them. The test is the
 * portfolio's size, not what is left to fetch, so the regime does not flip back to a burst at the end of a
 * backfill. A short catch-up (1,000 domains: then 6,000 reads, 111 minutes) still ran at once: it delayed the
 * alert reads once, by less than that.
 */
import type { PlanJob } from './planner.ts';
import type { PlanTier } from '../signals/definition.ts';

// A job's tier is part of its signal's definition (signals/ sits below sync/ in core's order).
export type { PlanTier };

/** Alert jobs are never polled more often than this (the service's guard scans are not faster). */
export const ALERT_PERIOD_FLOOR_MS = 60_000;
/** Context and history together never take more than this share of the capacity. */
export const KEEP_SHARE_MAX = 0.5;
/**
 * Their share (backfill, gap repairs and periodic re-reads; the domain list comes on top) in a large
 * portfolio: of 54 a minute 0.54, which the list's longer period pays for (5,000 domains: 50 pages every
 * ~3 h instead of hourly, 0.56 a minute saved), so the alert reads get what a round-robin over them alone
 * with an hourly list would. Every request taken from them lengthens the alert period alike (1 % of the
 * budget, 1 % of every change's wait); the backfill of 5,000 domains takes weeks at this share (README).
 */
export const LARGE_PORTFOLIO_SHARE = 0.01;
/**
 * Any other portfolio's backfill (the first sync's: every domain's score, BIMI, MTA-STS, DNS changes and
 * histories; a new domain's) yields too, from the moment every domain is watched (issue 37): at the whole
 * budget it held every alert read back (1,000 domains: 111 minutes without a health poll), so the first
 * hours were slower than a round-robin over the alert reads alone. Its room is the loan below, no more: what
 * the alert shares save (alertShares.ts: leaning to the signal that carries most changes gives the same p95
 * for fewer requests) stays with the alert reads. Half of it went to the backfill once; on a day-two account,
 * whose backfill runs all day at 1,000 domains, that kept the lean's gain from the alerts (the grid's engine ÷
 * peer 0.99 with it against 0.96 without).
 */
/**
 * While any backfill runs (a large portfolio's too), the sync borrows this share of its capacity from the
 * edits' share of the limit (budgetShape.ts, RateBudget.lend: 3 a minute of the 6 the 54 leave under 60) for
 * the backfill alone, so the alert reads keep the whole capacity — a round-robin's rate — from the first
 * minute. A floor taken from the alert reads instead (1 % of them) cost the first hours 1 % and still made
 * 1,000 domains' backfill a week; the loan backfills 9 reads a domain at 3 a minute (50 domains in ~2.5 h,
 * 200 ~10 h, 1,000 ~50 h). During the account's first day the loan is the alert reads' instead and the
 * backfill waits (firstDay.ts; AllocationOptions): backfillPromise.ts adds the two up, per size.
 */
export const BACKFILL_LOAN_SHARE = 1 / 18;
/**
 * A domain's health unread this long leaves a gap in the history derived from it (syncJobs.ts repairs it):
 * a portfolio whose catch-up would hold the alert reads back this long is large, and is shared out instead.
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
  /**
   * Requests per minute the sync borrows on top of the capacity while a backfill runs (BACKFILL_LOAN_SHARE;
   * 0 when nothing is backfilled): the syncer lends it to the budget. The backfill's after the first day,
   * the alert periods do not count on it; during the first day the alert reads' (AllocationOptions).
   */
  backfillLoanPerMinute: number;
  /**
   * In a large portfolio, the requests per minute context and history may spend, backfill included (the
   * planner holds them to it over KEEP_WINDOW_MS); null otherwise.
   */
  keepRoomPerMinute: number | null;
  /** The shortest period of the domain list (a large portfolio's alert period; 0 otherwise). */
  listPeriodMs: number;
  /**
   * True for a large portfolio: context and history keep within LARGE_PORTFOLIO_SHARE, their backfill
   * after the due alert reads.
   */
  large: boolean;
  /**
   * True while another portfolio backfills: context and history keep within the backfill's room
   * (the loan), after the due alert reads.
   */
  yielding: boolean;
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

/** What the allocation needs beyond the classes and the capacity. */
export interface AllocationOptions {
  /**
   * True during the account's first day (firstDay.ts, ALERTS_FIRST_DAY_MS): while a backfill runs, the loan
   * goes to the alert reads and the backfill (of a portfolio that must yield) waits for the first day's end.
   */
  firstDay?: boolean;
}

/** The tiers' periods for `capacityPerMinute`, from the classes of the live jobs (see allocateTiers). */
export function allocateClasses(
  classes: readonly JobClass[],
  capacityPerMinute: number,
  options: AllocationOptions = {},
): TierAllocation {
  let account = 0;
  let keep = 0;
  let alertCost = 0;
  let alertTargetMs = Number.POSITIVE_INFINITY;
  /** Requests it takes to read every context and history job once (a whole backfill, or every gap repair). */
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
      catchUp += c.count * Math.max(1, c.cost);
      if (c.fresh > 0) backfilling = true;
    }
  }
  const capacity = Math.max(capacityPerMinute, Number.EPSILON);
  // The first day belongs to the alerts: while the first sync's backfill runs, the loan is lent to the sync
  // as a whole (57 a minute at 60), and the alert reads count on it.
  const firstDay = (options.firstDay ?? false) && backfilling;
  const alertCapacity = firstDay ? capacity * (1 + BACKFILL_LOAN_SHARE) : capacity;
  const roomAt = (share: number) => Math.max(Number.EPSILON, capacity * share - account);
  const alertPeriodAt = (keepSpent: number, total = alertCapacity) =>
    Math.max(
      ALERT_PERIOD_FLOOR_MS,
      Math.round((alertCost / Math.max(Number.EPSILON, total - account - keepSpent)) * MINUTE_MS),
    );
  const fullRoom = roomAt(KEEP_SHARE_MAX);
  // The regime is the portfolio's, not the day's: measured at the capacity alone.
  const steadyPeriodMs = alertPeriodAt(Math.min(keep, fullRoom), capacity);
  // Large: at the whole budget a catch-up would leave some domain's health unread for GAP_REPAIR_MS.
  const catchUpMs = (catchUp / Math.max(Number.EPSILON, capacity - account)) * MINUTE_MS;
  const large =
    alertCost > 0 && steadyPeriodMs > alertTargetMs && catchUpMs + steadyPeriodMs >= GAP_REPAIR_MS;
  // A portfolio small enough for its alert reads to be at their 1-minute floor with budget to spare (27
  // domains and fewer at 54 a minute) has nothing to yield to: its backfill runs at once, as before.
  // (28 and fewer during the first day, at 57 a minute.)
  const alertsAtFloor = (alertCost * MINUTE_MS) / ALERT_PERIOD_FLOOR_MS < alertCapacity - account;
  const yielding = !large && backfilling && alertCost > 0 && !alertsAtFloor;
  const loan = (firstDay || large || yielding) && backfilling ? capacity * BACKFILL_LOAN_SHARE : 0;
  // During the first day a portfolio that yields keeps no room for its backfill at all: it runs on what
  // the alert reads leave (nothing, once they are past their floor) and starts when the day ends.
  const waits = firstDay && (large || yielding);
  // What the alert reads give up: the loan is on top of the capacity (a yielding backfill's whole room).
  const keepShare =
    waits || yielding ? 0 : large ? Math.max(Number.EPSILON, capacity * LARGE_PORTFOLIO_SHARE) : fullRoom;
  const keepRoom = waits ? 0 : keepShare + loan;
  // Re-reads share the room behind the backfill (planner.ts, orderRank); the loan ends with the backfill.
  const keepFactor = waits ? 1 : Math.max(1, keep / keepRoom);
  const keepAtPeriods = keep / keepFactor;
  const keepSpent = (large || yielding) && backfilling ? keepShare : keepAtPeriods;
  // A large portfolio's domain list is read once an alert period, not more often: a domain added waits for
  // it as a domain watched waits for its next health read (5,000 domains: 50 pages every ~3 h, not hourly).
  const listPeriodMs = large ? alertPeriodAt(keepSpent) : 0;
  if (large) {
    account = 0;
    for (const c of classes)
      if (c.tier === 'account') account += c.count * rate(c.cost, Math.max(c.targetPeriodMs, listPeriodMs));
  }
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
    backfillPerMinute: waits ? 0 : keepSpent + loan - keepAtPeriods,
    backfillLoanPerMinute: loan,
    keepRoomPerMinute: large || yielding ? keepRoom : null,
    listPeriodMs,
    large,
    yielding,
  };
}

/**
 * Records on a tiered job what the allocation gave it: its period (`periodMs`, read by effectivePeriodMs)
 * and, in a large portfolio, the room its context and history keep within, behind the due alert reads
 * (`keepRoomPerMinute`, read by orderRank and the planners). Untiered and stopped jobs are left alone.
 */
export function annotate(job: PlanJob, allocation: TierAllocation): void {
  if (job.tier === undefined || job.stopped) return;
  job.periodMs = allocatedPeriodMs(job, allocation);
  if (allocation.keepRoomPerMinute !== null && isKeepTier(job.tier))
    job.keepRoomPerMinute = allocation.keepRoomPerMinute;
  else delete job.keepRoomPerMinute;
}

/**
 * How long a large portfolio's context and history spending is counted over: within any such window they
 * take at most their room's worth (a burst of at most 32 requests at 1.08 a minute), and the alert reads
 * everything else, early polls included. Paced by the period alone, the backfill took every slot an alert
 * read was not due in (1.9 a minute where 1.08 was set aside, at 5,000 domains).
 */
export const KEEP_WINDOW_MS = 30 * MINUTE_MS;

/** Requests a context or history job takes of its room (as the planners charge it). */
export function keepCost(job: Pick<PlanJob, 'cost'>): number {
  return Math.max(1, Math.ceil(job.cost));
}

/** What a large portfolio's context and history may still spend now, having spent `spent` in the window. */
export function keepAllowance(roomPerMinute: number, spent: number): number {
  return Math.floor((roomPerMinute * KEEP_WINDOW_MS) / MINUTE_MS) - spent;
}

/** The period the allocation gives a tiered job (the same for every job of its class). */
function allocatedPeriodMs(
  job: Pick<PlanJob, 'tier' | 'targetPeriodMs' | 'cost' | 'alertShare'>,
  allocation: TierAllocation,
): number {
  if (job.tier === 'account') return Math.max(job.targetPeriodMs, allocation.listPeriodMs);
  if (job.tier === 'alert')
    return Math.round((allocation.alertPeriodMs * Math.max(1, job.cost)) / shareOf(job));
  return Math.round(job.targetPeriodMs * allocation.keepFactor);
}

/**
 * Computes the tiers' periods for `capacityPerMinute` and records each tiered job's period on the job
 * (`periodMs`), where effectivePeriodMs reads it. Jobs are built afresh for every planning step, so the
 * annotation never outlives the allocation it came from. Untiered and stopped jobs are left alone.
 */
export function allocateTiers(
  jobs: readonly PlanJob[],
  capacityPerMinute: number,
  options: AllocationOptions = {},
): TierAllocation {
  const allocation = allocateClasses(classesOf(jobs), capacityPerMinute, options);
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
