/**
 * The watch's politeness: a token bucket per resolver (at most `perSecond` queries a second to each server,
 * bursts of one second's worth) and a cap on checks in flight. Both wait on the injected clock, so tests run
 * them on a fake one.
 */
import type { ApiClock } from '../../../shared/api/clock.ts';

/** A per-second token bucket. */
export class QueryBucket {
  private tokens: number;
  private last: number;
  private waiting: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly clock: Pick<ApiClock, 'now' | 'sleep'>,
  ) {
    this.tokens = perSecond;
    this.last = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }

  /** Resolves when a query may be sent (queued in call order). */
  take(): Promise<void> {
    const turn = this.waiting.then(async () => {
      this.refill();
      while (this.tokens < 1) {
        await this.clock.sleep(Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
        this.refill();
      }
      this.tokens -= 1;
    });
    this.waiting = turn;
    return turn;
  }
}

/** Runs at most `limit` tasks at once. */
export class Semaphore {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((go) => this.queue.push(go));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}
