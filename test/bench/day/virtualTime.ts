/**
 * Discrete-event time for the simulated day: nothing sleeps for real. Sleepers wait in a queue; the driver
 * lets all work that is not waiting on the clock finish (in-process HTTP included), then jumps the clock to
 * the earliest sleeper and wakes it. A day of polling therefore costs only the CPU its requests take.
 */

interface Sleeper {
  at: number;
  seq: number;
  wake: () => void;
}

/** A clock that only moves when the driver moves it. */
export class VirtualTime {
  private current: number;
  private readonly sleepers: Sleeper[] = [];
  private seq = 0;
  /** Work in flight that is not a sleeper (requests to the in-process service); the driver waits for it. */
  private busy = 0;
  /** Drivers waiting for the last busy work to end. */
  private idleWaiters: (() => void)[] = [];

  constructor(start: number) {
    this.current = start;
  }

  /** Epoch ms of the virtual now. */
  now = (): number => this.current;

  /** Resolves when the virtual clock reaches now + ms; rejects with the signal's reason when it aborts. */
  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const sleeper: Sleeper = { at: this.current + Math.max(0, ms), seq: this.seq++, wake: resolve };
      const onAbort = () => {
        const i = this.sleepers.indexOf(sleeper);
        if (i >= 0) this.sleepers.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      sleeper.wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.insert(sleeper);
    });

  /** Sleeps until an absolute virtual instant. */
  sleepUntil(at: number): Promise<void> {
    return this.sleep(at - this.current);
  }

  /** Runs `work` counted as busy: the clock does not move while it is in flight. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.busy += 1;
    try {
      return await work();
    } finally {
      this.busy -= 1;
      if (this.busy === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  /** Moves time forward, waking sleepers in order, until `end` or until nothing is left to wake. */
  async runUntil(end: number): Promise<void> {
    for (;;) {
      await this.settle();
      const next = this.sleepers[0];
      if (!next || next.at > end) break;
      this.sleepers.shift();
      this.current = Math.max(this.current, next.at);
      next.wake();
    }
    this.current = Math.max(this.current, end);
  }

  /**
   * After `runUntil(end)`: keeps waking sleepers (past `end`) until `done()` holds, for work that was mid-way
   * at the end (a request waiting out the budget). Throws, naming the count of sleepers, when `done()` still
   * fails `graceMs` after `end` — a poller that never finishes would otherwise leave the process hanging.
   */
  async drain(done: () => boolean, graceMs: number): Promise<void> {
    const limit = this.current + graceMs;
    for (;;) {
      await this.settle();
      if (done()) return;
      const next = this.sleepers[0];
      if (!next || next.at > limit)
        throw new Error(
          `virtual time: work still pending ${graceMs} ms after the end (${this.sleepers.length} sleepers)`,
        );
      this.sleepers.shift();
      this.current = Math.max(this.current, next.at);
      next.wake();
    }
  }

  /** Lets everything that is not asleep run to its next sleep (or to completion). */
  private async settle(): Promise<void> {
    // Microtasks drain before a macrotask turn; in-process requests may need several turns, and work resumed
    // by a finished request may start another one, so idle must hold for two turns in a row.
    // While work is in flight in another process (the week's service), wait for it rather than spin turns.
    for (let idle = 0; idle < 2;) {
      if (this.busy > 0) {
        await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
        idle = 0;
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
      idle = this.busy === 0 ? idle + 1 : 0;
    }
  }

  private insert(sleeper: Sleeper): void {
    // Binary insertion keeps the queue ordered by (at, seq); sleepers at the same instant wake in order.
    let lo = 0;
    let hi = this.sleepers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const s = this.sleepers[mid]!;
      if (s.at < sleeper.at || (s.at === sleeper.at && s.seq < sleeper.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.sleepers.splice(lo, 0, sleeper);
  }
}
