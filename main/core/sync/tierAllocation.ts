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
function shareOf(job: PlanJob): number {
  const share = job.alertShare ?? 1;
  return share > 0 && share <= 1 ? share : 1;
}

function rate(job: PlanJob, periodMs: number): number {
  return (Math.max(1, job.cost) * MINUTE_MS) / Math.max(1, periodMs);
}

/**
 * Computes the tiers' periods for `capacityPerMinute` and records each tiered job's period on the job
 * (`periodMs`), where effectivePeriodMs reads it. Jobs are built afresh for every planning step, so the
 * annotation never outlives the allocation it came from. Untiered and stopped jobs are left alone.
 */
export function allocateTiers(jobs: readonly PlanJob[], capacityPerMinute: number): TierAllocation {
  const live = jobs.filter((job) => job.tier !== undefined && !job.stopped);
  let account = 0;
  let keep = 0;
  let alertCost = 0;
  for (const job of live) {
    if (job.tier === 'account') account += rate(job, job.targetPeriodMs);
    else if (job.tier === 'alert') alertCost += Math.max(1, job.cost) * shareOf(job);
    else keep += rate(job, job.targetPeriodMs);
  }
  const capacity = Math.max(capacityPerMinute, Number.EPSILON);
  const keepRoom = Math.max(Number.EPSILON, capacity * KEEP_SHARE_MAX - account);
  const keepFactor = Math.max(1, keep / keepRoom);
  const keepSpent = keep / keepFactor;
  const alertRoom = Math.max(Number.EPSILON, capacity - account - keepSpent);
  const alertPeriodMs = Math.max(ALERT_PERIOD_FLOOR_MS, Math.round((alertCost / alertRoom) * MINUTE_MS));

  for (const job of live) {
    if (job.tier === 'account') job.periodMs = job.targetPeriodMs;
    else if (job.tier === 'alert')
      job.periodMs = Math.round((alertPeriodMs * Math.max(1, job.cost)) / shareOf(job));
    else job.periodMs = Math.round(job.targetPeriodMs * keepFactor);
  }
  return {
    alertPeriodMs,
    keepFactor,
    perMinute: {
      account,
      alert: alertCost === 0 ? 0 : (alertCost * MINUTE_MS) / alertPeriodMs,
      ...splitKeep(live, keepFactor),
    },
  };
}

function splitKeep(jobs: readonly PlanJob[], factor: number): { context: number; history: number } {
  let context = 0;
  let history = 0;
  for (const job of jobs) {
    if (job.tier === 'context') context += rate(job, job.targetPeriodMs * factor);
    else if (job.tier === 'history') history += rate(job, job.targetPeriodMs * factor);
  }
  return { context, history };
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
