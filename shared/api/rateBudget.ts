import { systemClock, type ApiClock } from './clock.ts';

/** Foreground calls (the user's own edits) may use the headroom; background polling may not. */
export type BudgetPriority = 'foreground' | 'background';

export interface RateBudgetOptions {
  /** Largest burst, in requests (default 60). */
  capacity?: number;
  /** Sustained rate, in requests per minute (default 60, the spec's per-token limit). */
  refillPerMinute?: number;
  /** Tokens background reservations must leave in the bucket (default 0). */
  headroom?: number;
  /** After a penalty's pause ends, refill stays slowed for this long (default 60 000 ms). */
  slowdownMs?: number;
  /** Refill speed during the slowdown, as a fraction of the normal rate (default 0.5). */
  slowdownFactor?: number;
  /**
   * Reservations any 60 s may hold, every priority together (the service's limit); default none. A bucket
   * alone bounds a minute only by its size plus its refill, so this is what keeps a lent rate within it.
   */
  windowLimit?: number;
  /** Of windowLimit, what background reservations leave to foreground ones in any 60 s (default 0). */
  windowReserve?: number;
  clock?: Pick<ApiClock, 'now' | 'sleep'>;
}

export interface ReserveOptions {
  /** Default 'foreground'. */
  priority?: BudgetPriority;
  /** Tokens to leave untouched; defaults to the budget's headroom for background, 0 for foreground. */
  headroom?: number;
  /** Cancels a waiting reserve(); it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** reserve() rejects with RateBudgetExceeded instead of waiting longer than this. */
  maxWaitMs?: number;
}

/** Plain-data view of a budget, for status displays and the scheduler. */
export interface RateBudgetSnapshot {
  available: number;
  capacity: number;
  headroom: number;
  ratePerMinute: number;
  pausedUntil: number | null;
}

/** reserve() would have to wait longer than its maxWaitMs. */
export class RateBudgetExceeded extends Error {
  override readonly name = 'RateBudgetExceeded';
  constructor(readonly waitMs: number) {
    super(`The rate budget has no room for ${Math.ceil(waitMs)} ms.`);
  }
}

// Refill is continuous; comparisons allow for floating-point dust so a wait of exactly the computed
// time always suffices.
const EPSILON = 1e-9;
const WINDOW_MS = 60_000;

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(
      `${name} must be a ${allowZero ? 'non-negative' : 'positive'} number (got ${value}).`,
    );
  }
  return value;
}

/**
 * A token bucket for one account's API token: every HTTP attempt takes one token; tokens come back at
 * the configured rate. A 429 penalizes the bucket: empty until the server's Retry-After, then slower
 * refill for a while, so the app backs off as a whole rather than call by call.
 */
export class RateBudget {
  readonly capacity: number;
  readonly headroom: number;
  private readonly baseRatePerMs: number;
  private readonly slowdownMs: number;
  private readonly slowdownFactor: number;
  private readonly clock: Pick<ApiClock, 'now' | 'sleep'>;
  private tokens: number;
  private updatedAt: number;
  private pausedUntil = 0;
  private slowedUntil = 0;
  private lentPerMs = 0;
  private readonly windowLimit: number;
  private readonly windowReserve: number;
  /** When each reservation of the last 60 s was taken, oldest first (only with a windowLimit). */
  private readonly taken: number[] = [];

  constructor(options: RateBudgetOptions = {}) {
    this.capacity = positive('capacity', options.capacity ?? 60);
    this.baseRatePerMs = positive('refillPerMinute', options.refillPerMinute ?? 60) / 60_000;
    this.headroom = positive('headroom', options.headroom ?? 0, true);
    if (this.headroom >= this.capacity) {
      throw new RangeError(`headroom (${this.headroom}) must be smaller than capacity (${this.capacity}).`);
    }
    this.slowdownMs = positive('slowdownMs', options.slowdownMs ?? 60_000, true);
    this.slowdownFactor = positive('slowdownFactor', options.slowdownFactor ?? 0.5, true);
    if (this.slowdownFactor > 1) throw new RangeError('slowdownFactor must be at most 1.');
    this.windowLimit =
      options.windowLimit === undefined
        ? Number.POSITIVE_INFINITY
        : positive('windowLimit', options.windowLimit);
    this.windowReserve = positive('windowReserve', options.windowReserve ?? 0, true);
    this.clock = options.clock ?? systemClock;
    this.tokens = this.capacity;
    this.updatedAt = this.clock.now();
  }

  /**
   * Whole requests this priority can make right now; with `withinMs`, counting the window's reservations
   * that leave it within that time as gone (reserve() waits those few ms): a tick's requests go out over its
   * first round trips, so 60 s later the last of them still held the window at the next tick's instant, and
   * their slots went a tick late (the sync at ~56 a minute where 57 was set).
   */
  available(options: Pick<ReserveOptions, 'priority' | 'headroom'> & { withinMs?: number } = {}): number {
    this.advance();
    const inBucket = Math.floor(this.tokens + EPSILON - this.headroomFor(options));
    return Math.max(0, Math.min(inBucket, this.windowRoom(options, options.withinMs ?? 0)));
  }

  /** Takes `n` tokens if they are there now; never waits. */
  tryReserve(n = 1, options: Pick<ReserveOptions, 'priority' | 'headroom'> = {}): boolean {
    positive('n', n);
    this.advance();
    if (this.tokens + EPSILON < n + this.headroomFor(options)) return false;
    if (this.windowRoom(options) < n) return false;
    this.tokens = Math.max(0, this.tokens - n);
    if (Number.isFinite(this.windowLimit)) for (let i = 0; i < n; i++) this.taken.push(this.clock.now());
    return true;
  }

  /** Milliseconds until `n` tokens would be available to this priority (0 when they are now). */
  waitTimeMs(n = 1, options: Pick<ReserveOptions, 'priority' | 'headroom'> = {}): number {
    this.advance();
    return Math.max(
      this.timeToGain(n + this.headroomFor(options) - this.tokens),
      this.windowWaitMs(n, options),
    );
  }

  /**
   * Lends the refill `perMinute` more for as long as it is set (0 ends the loan): the sync's backfill
   * borrows part of the edits' share of the limit while it runs; windowReserve keeps the rest for them.
   */
  lend(perMinute: number): void {
    positive('perMinute', perMinute, true);
    this.advance();
    this.lentPerMs = perMinute / 60_000;
  }

  /**
   * Takes `n` tokens, sleeping (on the injected clock) until they are there. Rejects with RangeError when
   * `n` can never fit, RateBudgetExceeded when the wait would pass `maxWaitMs`, or the signal's reason.
   */
  async reserve(n = 1, options: ReserveOptions = {}): Promise<void> {
    positive('n', n);
    if (n + this.headroomFor(options) > this.capacity) {
      throw new RangeError(
        `Cannot reserve ${n} with headroom ${this.headroomFor(options)} of ${this.capacity}.`,
      );
    }
    for (;;) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (this.tryReserve(n, options)) return;
      const waitMs = this.waitTimeMs(n, options);
      if (options.maxWaitMs !== undefined && waitMs > options.maxWaitMs) throw new RateBudgetExceeded(waitMs);
      await this.clock.sleep(Math.max(1, waitMs), options.signal);
    }
  }

  /** After a 429: no tokens until `retryAfterMs` from now, then slowed refill for the slowdown period. */
  penalize(retryAfterMs: number): void {
    this.advance();
    const now = this.clock.now();
    this.tokens = 0;
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, retryAfterMs || 0));
    this.slowedUntil = Math.max(this.slowedUntil, this.pausedUntil + this.slowdownMs);
  }

  /** The sustained rate achievable right now, in requests per minute (0 while paused by a penalty). */
  ratePerMinute(): number {
    return this.rateAt(this.clock.now()) * 60_000;
  }

  /** Current state, for display and planning. */
  snapshot(): RateBudgetSnapshot {
    const now = this.clock.now();
    return {
      available: this.available(),
      capacity: this.capacity,
      headroom: this.headroom,
      ratePerMinute: this.ratePerMinute(),
      pausedUntil: this.pausedUntil > now ? this.pausedUntil : null,
    };
  }

  private headroomFor(options: Pick<ReserveOptions, 'priority' | 'headroom'>): number {
    if (options.headroom !== undefined) return positive('headroom', options.headroom, true);
    return options.priority === 'background' ? this.headroom : 0;
  }

  /** Reservations this priority may still take within the last 60 s (∞ without a windowLimit). */
  private windowRoom(options: Pick<ReserveOptions, 'priority'>, withinMs = 0): number {
    if (!Number.isFinite(this.windowLimit)) return Number.POSITIVE_INFINITY;
    const from = this.clock.now() - WINDOW_MS;
    let old = 0;
    while (old < this.taken.length && this.taken[old]! <= from) old++;
    if (old > 0) this.taken.splice(0, old);
    let leaving = 0;
    while (leaving < this.taken.length && this.taken[leaving]! <= from + withinMs) leaving++;
    return this.windowLimitFor(options) - this.taken.length + leaving;
  }

  private windowLimitFor(options: Pick<ReserveOptions, 'priority'>): number {
    return this.windowLimit - (options.priority === 'background' ? this.windowReserve : 0);
  }

  /** Milliseconds until `n` more reservations fit this priority's window (0 when they do now). */
  private windowWaitMs(n: number, options: Pick<ReserveOptions, 'priority'>): number {
    const room = this.windowRoom(options);
    if (room >= n) return 0;
    const limit = this.windowLimitFor(options);
    if (n > limit) return Number.POSITIVE_INFINITY;
    // The reservation that must age out of the window for n more to fit.
    const oldest = this.taken[this.taken.length - limit + n - 1]!;
    return Math.max(1, oldest + WINDOW_MS - this.clock.now() + 1);
  }

  private rateAt(t: number): number {
    if (t < this.pausedUntil) return 0;
    if (t < this.slowedUntil) return (this.baseRatePerMs + this.lentPerMs) * this.slowdownFactor;
    return this.baseRatePerMs + this.lentPerMs;
  }

  /** Adds what was refilled since the last look, segment by segment (paused, slowed, normal). */
  private advance(): void {
    const now = this.clock.now();
    if (now <= this.updatedAt) {
      // A clock that went backwards refills nothing, and restarts from here.
      this.updatedAt = now;
      return;
    }
    let t = this.updatedAt;
    let gained = 0;
    for (const boundary of [this.pausedUntil, this.slowedUntil]) {
      if (t < boundary) {
        const end = Math.min(boundary, now);
        gained += (end - t) * this.rateAt(t);
        t = end;
      }
    }
    if (t < now) gained += (now - t) * this.rateAt(t);
    this.tokens = Math.min(this.capacity, this.tokens + gained);
    this.updatedAt = now;
  }

  /** Milliseconds of refill needed to gain `need` tokens, starting now. */
  private timeToGain(need: number): number {
    if (need <= EPSILON) return 0;
    const now = this.clock.now();
    let t = now;
    let left = need;
    for (const boundary of [this.pausedUntil, this.slowedUntil]) {
      if (t < boundary) {
        const rate = this.rateAt(t);
        const span = boundary - t;
        if (rate > 0 && rate * span >= left) return Math.ceil(t - now + left / rate);
        left -= rate * span;
        t = boundary;
      }
    }
    return Math.ceil(t - now + left / (this.baseRatePerMs + this.lentPerMs));
  }
}

/** One RateBudget per account, keyed by an opaque account key (a profile id, never the token). */
export class RateBudgets {
  private readonly budgets = new Map<string, RateBudget>();
  constructor(private readonly options: RateBudgetOptions = {}) {}

  /** The shared budget of this account, created on first use. */
  forAccount(accountKey: string): RateBudget {
    let budget = this.budgets.get(accountKey);
    if (!budget) {
      budget = new RateBudget(this.options);
      this.budgets.set(accountKey, budget);
    }
    return budget;
  }
}
