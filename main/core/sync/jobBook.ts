/**
 * The account's jobs kept between ticks: the incremental planner. A tick used to rebuild every job from
 * the mirror (6 per domain), allocate and scan them all — 33 ms a tick at 5,000 domains, and a first sync
 * whose CPU grew with N². The book keeps the jobs, reads only the sync states written since the last tick
 * (mirror.syncStatesSince) and keeps them where the next plan finds them at once:
 *
 * - jobs alike for the allocation (tierAllocation.ts, JobClass: same tier, target, cost and share) always
 *   share one period, so within a class the most urgent job is the one fetched longest ago: each class is
 *   a list ordered by last success, and the due jobs of a class are a prefix of it;
 * - never-fetched jobs are one list in the order compareUrgency gives them (tier, domain, priority, key;
 *   the backfill tiers, which compareUrgency puts after the due jobs during a long catch-up, at its end);
 * - jobs held by a backoff (notBefore set: failing, or stopped for a missing scope) are few and are looked
 *   at every tick, since time alone changes whether they are due or stopped;
 * - the allocation is computed from the classes' counts, with the very sums a full re-plan makes.
 *
 * A plan merges the heads of those lists in compareUrgency order, so it picks exactly what planTick picks
 * from buildJobs' jobs (the property test replays random ticks against both). A change of the domain list
 * (hourly at most) or a write by another process rebuilds the book from the mirror, once.
 */
import type { Mirror, MirrorDomain, RowCursor, SyncState } from '../mirror/types.ts';
import type { SignalName } from '../signals/catalog.ts';
import {
  compareFresh,
  compareUrgency,
  isDue,
  mayRunEarly,
  stretchOf,
  TickSpend,
  type Stretch,
} from './planner.ts';
import {
  allocateClasses,
  annotate,
  classKeyOf,
  classOf,
  demandOf,
  isKeepTier,
  keepAllowance,
  keepCost,
  KEEP_WINDOW_MS,
  sortClasses,
  type JobClass,
  type TierAllocation,
} from './tierAllocation.ts';
import {
  CORE_SIGNALS,
  GAP_REPAIR_MS,
  hasGap,
  HISTORY_SIGNALS,
  jobKey,
  makeJob,
  ON_DEMAND_SIGNALS,
  REPAIR_NOW_MS,
  stateKey,
  type JobInputs,
  type SyncJob,
} from './syncJobs.ts';

type Order = (a: SyncJob, b: SyncJob) => number;

/** Within a class (one period, one weight) the stalest first: last success, then key, as compareUrgency. */
const staleOrder: Order = (a, b) => {
  const la = a.lastSuccessAt!;
  const lb = b.lastSuccessAt!;
  if (la !== lb) return la - lb;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
};

/** A list kept in order by binary insertion. */
class SortedJobs {
  readonly items: SyncJob[] = [];
  constructor(private readonly order: Order) {}

  private lowerBound(job: SyncJob): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order(this.items[mid]!, job) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first job fetched after `at` (the list is ordered by last success). */
  after(at: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.items[mid]!.lastSuccessAt! <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(job: SyncJob): void {
    this.items.splice(this.lowerBound(job), 0, job);
  }

  remove(job: SyncJob): void {
    const at = this.lowerBound(job);
    if (this.items[at] === job) this.items.splice(at, 1);
    else {
      const i = this.items.indexOf(job);
      if (i >= 0) this.items.splice(i, 1);
    }
  }
}

/** A class of jobs: its count (held jobs apart) and its fetched jobs, stalest first. */
interface Bucket {
  cls: JobClass;
  stale: SortedJobs;
}

const PER_DOMAIN: readonly SignalName[] = [...CORE_SIGNALS, ...HISTORY_SIGNALS];

/** What a tick plans: the jobs to run, the stretch and the allocation they were planned with. */
export interface BookPlan {
  picked: SyncJob[];
  stretch: Stretch;
  allocation: TierAllocation | null;
}

/** Backfill figures of progress.ts, kept as the book changes. */
export interface BookBackfill {
  domainsDone: number;
  domainsTotal: number;
  /** Requests the jobs not attempted yet (and not stopped) will take. */
  remaining: number;
  /** Of them, the context and history jobs' (a large portfolio reads them within their room). */
  remainingKeep: number;
}

/** The incremental planner of one account (see the top of this file). */
export class JobBook {
  private readonly jobs = new Map<string, SyncJob>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly fresh = new SortedJobs(compareFresh);
  private readonly held = new Set<SyncJob>();
  private readonly states = new Map<string, SyncState>();
  private readonly active = new Map<number, string>();
  /** Domains whose core or history jobs were not all attempted yet, with how many are left. */
  private readonly unattempted = new Map<number, number>();
  private readonly notTried = new Set<string>();
  private notTriedCost = 0;
  private notTriedKeepCost = 0;
  private readonly repairing = new Set<string>();
  private shares: Readonly<Partial<Record<SignalName, number>>> = {};
  /** Health older than this was looked at for gaps already (null: look at all of it). */
  private gapsSeenUpTo: number | null = null;
  /** True when the gap map may have changed elsewhere (gapsChanged) or the book was rebuilt. */
  private gapsDirty = true;
  /** Domains whose gap hasGap must look at again (see repairGaps). */
  private readonly recheck = new Set<number>();
  /** Domains whose history or health was written since the last plan (a gap may start or end there). */
  private readonly historyWritten = new Set<number>();
  private stateCursor: RowCursor | null = null;
  private domainCursor: RowCursor | null = null;
  private built = false;

  constructor(
    private readonly mirror: Pick<Mirror, 'syncStatesSince' | 'domainsSince'>,
    private readonly accountId: number,
    /** Histories with a gap to repair: the same map buildJobs is given (SyncContext.historyGaps). */
    private readonly gaps: Map<string, number>,
  ) {}

  /** Brings the book up to the mirror and the clock, then plans a tick as planTick would. */
  plan(
    now: number,
    options: {
      capacityPerMinute: number;
      spendable: number;
      burst?: number;
      alertShares?: Readonly<Partial<Record<SignalName, number>>>;
      /** The account's first day (firstDay.ts): the alert reads take the backfill's loan. */
      firstDay?: boolean;
    },
  ): BookPlan {
    this.update(now, options.alertShares ?? {});
    const { classes, allocation } = this.allocate(now, options.capacityPerMinute, options.firstDay ?? false);
    const stretch = stretchOf(demandOf(classes), options.capacityPerMinute);
    const picked = this.pick(now, stretch.factor, options.spendable, options.burst, allocation);
    return { picked, stretch, allocation };
  }

  /** The gap map was used by a full buildJobs (the status, a pass): look at all of it at the next plan. */
  gapsChanged(): void {
    this.gapsDirty = true;
  }

  /** True while a domain's core or history signals, or the domain list, were never attempted. */
  backfilling(): boolean {
    return this.unattempted.size > 0 || this.notTried.has(jobKey(null, 'domains'));
  }

  /** progress.ts's backfill figures, counting `attempted` (keys tried since the last plan) as attempted. */
  backfill(attempted: ReadonlySet<string>, now: number): BookBackfill {
    const left = new Map<number, number>();
    let remaining = this.notTriedCost;
    let remainingKeep = this.notTriedKeepCost;
    const spend = (job: SyncJob) => {
      remaining -= job.cost;
      if (isKeepTier(job.tier)) remainingKeep -= job.cost;
    };
    for (const key of attempted) {
      if (!this.notTried.has(key)) continue;
      const job = this.jobs.get(key)!;
      spend(job);
      if (job.domainId !== null && PER_DOMAIN.includes(job.signal))
        left.set(job.domainId, (left.get(job.domainId) ?? this.unattempted.get(job.domainId)!) - 1);
    }
    for (const job of this.held)
      if (this.notTried.has(job.key) && !attempted.has(job.key) && stoppedAt(job, now)) spend(job);
    let pending = this.unattempted.size;
    for (const count of left.values()) if (count === 0) pending -= 1;
    return {
      domainsDone: this.active.size - pending,
      domainsTotal: this.active.size,
      remaining,
      remainingKeep,
    };
  }

  /** Reads what changed in the mirror and what the clock changed (gaps, shares). */
  private update(now: number, shares: Readonly<Partial<Record<SignalName, number>>>): void {
    const domains = this.mirror.domainsSince(this.accountId, this.domainCursor);
    this.domainCursor = domains.cursor;
    const states = this.mirror.syncStatesSince(this.accountId, this.stateCursor);
    this.stateCursor = states.cursor;
    const sharesChanged = !sameShares(shares, this.shares);
    this.shares = shares;
    if (!this.built || domains.full || domains.rows.length > 0 || states.full) {
      // The list changed (or another process wrote): read both whole, once.
      const allDomains = domains.full ? domains.rows : this.mirror.domainsSince(this.accountId, null).rows;
      const allStates = states.full ? states.rows : this.mirror.syncStatesSince(this.accountId, null).rows;
      this.rebuild(allDomains, allStates, now);
    } else {
      for (const state of states.rows) this.stateChanged(state, now);
      if (sharesChanged) this.reshare(now);
    }
    this.repairGaps(now);
  }

  private inputs(now: number): JobInputs {
    return { now, activeCount: this.active.size, alertShares: this.shares };
  }

  private rebuild(domains: readonly MirrorDomain[], states: readonly SyncState[], now: number): void {
    this.jobs.clear();
    this.buckets.clear();
    this.fresh.items.length = 0;
    this.held.clear();
    this.states.clear();
    this.active.clear();
    this.unattempted.clear();
    this.notTried.clear();
    this.notTriedCost = 0;
    this.notTriedKeepCost = 0;
    this.repairing.clear();
    for (const state of states) this.states.set(stateKey(state), state);
    for (const d of domains) if (d.removedAt === null) this.active.set(d.domainId, d.fqdn);
    const inputs = this.inputs(now);
    this.put(null, null, 'domains', inputs);
    for (const [domainId, fqdn] of this.active)
      for (const signal of PER_DOMAIN) this.put(domainId, fqdn, signal, inputs);
    for (const state of states) {
      if (state.domainId === null || !ON_DEMAND_SIGNALS.includes(state.signal)) continue;
      const fqdn = this.active.get(state.domainId);
      if (fqdn !== undefined) this.put(state.domainId, fqdn, state.signal, inputs);
    }
    this.built = true;
    this.gapsSeenUpTo = null;
    this.gapsDirty = true;
  }

  /** A state was written: its job is made again from it (a wanted panel's job appears). */
  private stateChanged(state: SyncState, now: number): void {
    const key = stateKey(state);
    this.states.set(key, state);
    if (state.domainId === null) {
      if (state.signal === 'domains') this.put(null, null, 'domains', this.inputs(now));
      return;
    }
    const fqdn = this.active.get(state.domainId);
    if (fqdn === undefined) return;
    if (state.signal === 'health' || HISTORY_SIGNALS.includes(state.signal))
      this.historyWritten.add(state.domainId);
    if (PER_DOMAIN.includes(state.signal) || ON_DEMAND_SIGNALS.includes(state.signal))
      this.put(state.domainId, fqdn, state.signal, this.inputs(now));
  }

  /** (Re)makes one job from its state and files it. */
  private put(domainId: number | null, fqdn: string | null, signal: SignalName, inputs: JobInputs): void {
    const key = jobKey(domainId, signal);
    const job = makeJob(domainId, fqdn, signal, this.states.get(key) ?? null, inputs);
    if (this.repairing.has(key)) job.targetPeriodMs = REPAIR_NOW_MS;
    const old = this.jobs.get(key);
    if (old) this.unfile(old);
    this.jobs.set(key, job);
    this.file(job);
  }

  /** The shares changed: every alert job moves to its new class. */
  private reshare(now: number): void {
    this.gapsSeenUpTo = null;
    const inputs = this.inputs(now);
    for (const job of [...this.jobs.values()])
      if (job.tier === 'alert') this.put(job.domainId, job.fqdn, job.signal, inputs);
  }

  /**
   * Gap repair as buildJobs does it (hasGap, on the same map), looking only where hasGap can answer
   * differently than it did: domains whose history was just written (a gap ends only so), held health
   * jobs, fetched health jobs that became GAP_REPAIR_MS old since the last plan (the class lists are
   * ordered by last success, so those are one range of each), and every gap and repair when the map may
   * have changed elsewhere. Anything else has a young health or an unread history, where hasGap says no
   * and remembers nothing, or a gap that holds until its history is read.
   */
  private repairGaps(now: number): void {
    const candidates = new Set<number>([...this.historyWritten, ...this.recheck]);
    this.historyWritten.clear();
    this.recheck.clear();
    if (this.gapsDirty) {
      for (const key of [...this.gaps.keys(), ...this.repairing]) {
        const domainId = this.jobs.get(key)?.domainId;
        if (domainId !== undefined && domainId !== null) candidates.add(domainId);
      }
      this.gapsDirty = false;
    }
    const oldUpTo = now - GAP_REPAIR_MS;
    const from = this.gapsSeenUpTo !== null && this.gapsSeenUpTo <= oldUpTo ? this.gapsSeenUpTo : null;
    for (const bucket of this.buckets.values()) {
      if (bucket.cls.tier !== 'alert') continue;
      const items = bucket.stale.items;
      const end = bucket.stale.after(oldUpTo);
      for (let i = from === null ? 0 : bucket.stale.after(from); i < end; i++)
        if (items[i]!.signal === 'health') candidates.add(items[i]!.domainId!);
    }
    this.gapsSeenUpTo = oldUpTo;
    for (const job of this.held)
      if (job.signal === 'health' && job.lastSuccessAt !== null && job.lastSuccessAt <= oldUpTo)
        candidates.add(job.domainId!);

    const inputs = this.inputs(now);
    for (const domainId of candidates) {
      const health = this.jobs.get(jobKey(domainId, 'health'));
      for (const signal of HISTORY_SIGNALS) {
        const history = this.jobs.get(jobKey(domainId, signal));
        if (!health || !history) continue;
        const gap = hasGap(health, history, now, this.gaps);
        // A gap seen no later than its history's last read is looked at again each plan (hasGap ends or
        // renews it then): it happens only when both came at the same instant.
        const seen = this.gaps.get(history.key);
        if (seen !== undefined && history.lastSuccessAt !== null && history.lastSuccessAt >= seen)
          this.recheck.add(domainId);
        if (gap === this.repairing.has(history.key)) continue;
        if (gap) this.repairing.add(history.key);
        else this.repairing.delete(history.key);
        this.put(domainId, history.fqdn, signal, inputs);
      }
    }
  }

  private file(job: SyncJob): void {
    this.track(job, +1);
    if (job.notBefore !== null) {
      this.held.add(job);
      return;
    }
    const bucket = this.bucketOf(job);
    bucket.cls.count += 1;
    if (job.lastSuccessAt === null) bucket.cls.fresh += 1;
    if (job.lastSuccessAt === null) this.fresh.insert(job);
    else bucket.stale.insert(job);
  }

  private unfile(job: SyncJob): void {
    this.track(job, -1);
    if (job.notBefore !== null) {
      this.held.delete(job);
      return;
    }
    const bucket = this.bucketOf(job);
    bucket.cls.count -= 1;
    if (job.lastSuccessAt === null) bucket.cls.fresh -= 1;
    if (job.lastSuccessAt === null) this.fresh.remove(job);
    else bucket.stale.remove(job);
  }

  private bucketOf(job: SyncJob): Bucket {
    const key = classKeyOf(job);
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { cls: classOf(job), stale: new SortedJobs(staleOrder) }));
    return bucket;
  }

  /** Keeps the backfill figures: which jobs were never attempted, per domain. */
  private track(job: SyncJob, sign: 1 | -1): void {
    if (job.state?.lastAttemptAt) return;
    if (sign > 0) this.notTried.add(job.key);
    else this.notTried.delete(job.key);
    this.notTriedCost += sign * job.cost;
    if (isKeepTier(job.tier)) this.notTriedKeepCost += sign * job.cost;
    if (job.domainId === null || !PER_DOMAIN.includes(job.signal)) return;
    const count = (this.unattempted.get(job.domainId) ?? 0) + sign;
    if (count === 0) this.unattempted.delete(job.domainId);
    else this.unattempted.set(job.domainId, count);
  }

  /**
   * Requests the context and history jobs took in the last KEEP_WINDOW_MS, as planner.ts's keepLeftOf
   * counts them (by last success): the recent end of each of their classes' lists, and the held ones.
   */
  private keepSpent(now: number): number {
    const since = now - KEEP_WINDOW_MS;
    let spent = 0;
    for (const bucket of this.buckets.values()) {
      if (!isKeepTier(bucket.cls.tier)) continue;
      const items = bucket.stale.items;
      for (let i = bucket.stale.after(since); i < items.length; i++) spent += keepCost(items[i]!);
    }
    for (const job of this.held)
      if (isKeepTier(job.tier) && job.lastSuccessAt !== null && job.lastSuccessAt > since)
        spent += keepCost(job);
    return spent;
  }

  /** The classes of the live jobs (held ones counted as the clock finds them) and their allocation. */
  private allocate(now: number, capacityPerMinute: number, firstDay: boolean) {
    const counts = new Map<string, JobClass>();
    for (const [key, bucket] of this.buckets) if (bucket.cls.count > 0) counts.set(key, { ...bucket.cls });
    for (const job of this.held) {
      job.stopped = stoppedAt(job, now);
      if (job.stopped) continue;
      const key = classKeyOf(job);
      let c = counts.get(key);
      if (!c) counts.set(key, (c = classOf(job)));
      c.count += 1;
      if (job.lastSuccessAt === null) c.fresh += 1;
    }
    const classes = sortClasses(counts.values());
    const tiered = classes.some((c) => c.tier !== undefined);
    return { classes, allocation: tiered ? allocateClasses(classes, capacityPerMinute, { firstDay }) : null };
  }

  /**
   * planTick over the book: due jobs in compareUrgency order while they fit (never-fetched first, then the
   * heads of the classes and the held jobs that are due), then — when every due job fitted — the alert
   * jobs that may run early, likewise.
   */
  private pick(
    now: number,
    factor: number,
    spendable: number,
    burst: number | undefined,
    allocation: TierAllocation | null,
  ): SyncJob[] {
    const picked: SyncJob[] = [];
    if (Math.floor(spendable) <= 0) return picked;
    const period = (job: SyncJob) => {
      if (allocation) annotate(job, allocation);
      return job;
    };
    const cmp = (a: SyncJob, b: SyncJob) => compareUrgency(a, b, now, factor);
    const heldDue: SyncJob[] = [];
    const heldEarly: SyncJob[] = [];
    for (const job of this.held) {
      period(job);
      if (isDue(job, now, factor)) heldDue.push(job);
      else if (mayRunEarly(job, now)) heldEarly.push(job);
    }
    heldDue.sort(cmp);
    heldEarly.sort(cmp);
    const lists = [...this.buckets.values()].filter((b) => b.stale.items.length > 0);

    const spend = new TickSpend(
      spendable,
      allocation?.keepRoomPerMinute != null
        ? keepAllowance(allocation.keepRoomPerMinute, this.keepSpent(now))
        : Number.POSITIVE_INFINITY,
      burst,
    );
    const take = (sources: Source[]): boolean => {
      for (;;) {
        if (spend.left <= 0) return true;
        let best: Source | null = null;
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
    const due: Source[] = [
      listSource(this.fresh.items, () => true, period),
      listSource(heldDue, () => true, period),
      ...lists.map((b) => listSource(b.stale.items, (job) => isDue(job, now, factor), period)),
    ];
    if (!take(due) || spend.left <= 0) return picked;
    const early: Source[] = [listSource(heldEarly, () => true, period)];
    for (const b of lists) {
      if (b.cls.tier !== 'alert') continue;
      const items = b.stale.items;
      let i = 0;
      while (i < items.length && isDue(items[i]!, now, factor)) i++;
      early.push(listSource(items.slice(i, i + spend.left), (job) => mayRunEarly(job, now), period, 0));
    }
    take(early);
    return picked;
  }
}

/** A cursor over a list while its jobs pass `ok` (the list is ordered, so the first that fails ends it). */
interface Source {
  head(): SyncJob | undefined;
  next(): void;
}

function listSource(
  items: readonly SyncJob[],
  ok: (job: SyncJob) => boolean,
  prepare: (job: SyncJob) => SyncJob,
  start = 0,
): Source {
  let i = start;
  let current: SyncJob | undefined;
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

function stoppedAt(job: SyncJob, now: number): boolean {
  return job.scopeMissing && job.notBefore !== null && job.notBefore > now;
}

function sameShares(
  a: Readonly<Partial<Record<SignalName, number>>>,
  b: Readonly<Partial<Record<SignalName, number>>>,
): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<SignalName>;
  for (const key of keys) if ((a[key] ?? 1) !== (b[key] ?? 1)) return false;
  return true;
}
