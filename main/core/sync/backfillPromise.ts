/**
 * The one model of how long a first sync's backfill takes (issue 37): the README's promise per size, the
 * bench's target and the app's ETA all come from here. The rule it follows is the allocation's
 * (tierAllocation.ts, firstDay.ts): a portfolio whose alert reads fit their 1-minute floor with budget to
 * spare backfills at once, in minutes; any other waits for the first day's end and then backfills on its
 * room (the loan, 3 a minute at 60; a large portfolio's share on top).
 */
import { budgetShape } from './budgetShape.ts';
import { ALERTS_FIRST_DAY_MS } from './firstDay.ts';
import { ALERT_SIGNALS, CORE_SIGNALS, HISTORY_SIGNALS, costOf, makeJob } from './syncJobs.ts';
import {
  allocateClasses,
  BACKFILL_LOAN_SHARE,
  classOf,
  sortClasses,
  type JobClass,
} from './tierAllocation.ts';

const MINUTE_MS = 60_000;
/** The sync's sustained rate on the default token (60 a minute, 6 kept for edits): 54. */
const DEFAULT_SYNC_RATE = budgetShape(60, 6).refillPerMinute;

/** The signals a domain's backfill reads: its core and history signals but the two alert-bearing reads. */
const BACKFILL_SIGNALS = [...CORE_SIGNALS, ...HISTORY_SIGNALS].filter((s) => !ALERT_SIGNALS.includes(s));

/** Requests one domain's backfill takes (the signals' own costs: 9 at every size today). */
export function backfillReadsPerDomain(): number {
  return BACKFILL_SIGNALS.reduce((n, signal) => n + costOf(signal, 1), 0);
}

/** The classes of a portfolio of `domains` never synced: its list and every domain's signals, all fresh. */
function freshPortfolio(domains: number): JobClass[] {
  const classes = new Map<string, JobClass>();
  const add = (job: ReturnType<typeof makeJob>, count: number) => {
    const c = classes.get(classOf(job).key) ?? classOf(job);
    c.count += count;
    c.fresh += count;
    classes.set(c.key, c);
  };
  const inputs = { now: 0, activeCount: domains };
  add(makeJob(null, null, 'domains', null, inputs), 1);
  for (const signal of [...CORE_SIGNALS, ...HISTORY_SIGNALS])
    add(makeJob(1, 'example.com', signal, null, inputs), domains);
  return sortClasses(classes.values());
}

/**
 * Requests a minute a portfolio's backfill runs at once the first day is over (the loan, and a large
 * portfolio's share), or null when it does not wait: its alert reads fit their floor, it backfills at once.
 */
export function backfillRoomPerMinute(domains: number, syncRatePerMinute = DEFAULT_SYNC_RATE): number | null {
  const classes = freshPortfolio(domains);
  if (allocateClasses(classes, syncRatePerMinute, { firstDay: true }).keepRoomPerMinute === null) return null;
  return allocateClasses(classes, syncRatePerMinute).keepRoomPerMinute;
}

/**
 * How long after an account's first sync starts its backfill is complete, at most: the first day and the
 * backfill's reads at its room; a portfolio that backfills at once, everything read at the sync's whole
 * rate (the loan included). The README's promise and the bench's target.
 */
export function backfillPromiseMs(domains: number, syncRatePerMinute = DEFAULT_SYNC_RATE): number {
  const reads = domains * backfillReadsPerDomain();
  const room = backfillRoomPerMinute(domains, syncRatePerMinute);
  if (room === null) {
    const everything = reads + domains * ALERT_SIGNALS.length + Math.ceil(domains / 100);
    return Math.ceil((everything / (syncRatePerMinute * (1 + BACKFILL_LOAN_SHARE))) * MINUTE_MS);
  }
  return ALERTS_FIRST_DAY_MS + Math.ceil((reads / room) * MINUTE_MS);
}

/**
 * The backfill's ETA by the same model, from where it stands: what is left of the first day, then the reads
 * left at the room (ms). `firstDayLeftMs` is 0 once the day is over or when the backfill does not wait.
 */
export function backfillEtaMs(readsLeft: number, roomPerMinute: number, firstDayLeftMs: number): number {
  return Math.max(0, firstDayLeftMs) + Math.ceil((Math.max(0, readsLeft) / roomPerMinute) * MINUTE_MS);
}
