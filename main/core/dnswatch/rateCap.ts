/**
 * The watch's politeness: a per-resolver cap (at most `perSecond` queries in ANY one-second window to each
 * server — what a resolver operator's per-client limit counts, so a token bucket's burst on top of its rate is
 * not allowed) and a cap on checks in flight. Both wait on the injected clock, so tests run them on a fake one.
 */
import type { ApiClock } from '../../../shared/api/clock.ts';

/** A sliding one-second window: the send times of the last `perSecond` queries. */
export class QueryBucket {
  private readonly sent: number[];
  private next = 0;
  private waiting: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly clock: Pick<ApiClock, 'now' | 'sleep'>,
    /** The window's length: a second for resolvers; a minute for the live checks' connections. */
    private readonly windowMs = 1000,
  ) {
    this.sent = new Array<number>(Math.max(1, Math.floor(perSecond))).fill(-Infinity);
  }

  /** Resolves when a query may be sent (queued in call order). */
  take(): Promise<void> {
    const turn = this.waiting.then(async () => {
      // The slot about to be reused holds the oldest of the last `perSecond` sends: it must be a second old.
      let wait = this.sent[this.next]! + this.windowMs - this.clock.now();
      while (wait > 0) {
        await this.clock.sleep(wait);
        wait = this.sent[this.next]! + this.windowMs - this.clock.now();
      }
      this.sent[this.next] = this.clock.now();
      this.next = (this.next + 1) % this.sent.length;
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
