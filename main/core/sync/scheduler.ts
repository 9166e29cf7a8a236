import cron from 'node-cron';

/** Something that calls `onTick` repeatedly until stopped. Injected so tests drive ticks by hand. */
export interface TickScheduler {
  /** Starts ticking; the returned handle stops it. */
  start(onTick: () => Promise<void>): { stop(): Promise<void> };
}

/**
 * Every 5 seconds: a tick's refill (a twelfth of the rate) must fit the sync's burst (a tenth of the limit,
 * see budgetShape) or refill is lost; fine enough to spend the budget evenly, coarse enough to cost nothing
 * idle.
 */
export const DEFAULT_TICK_CRON = '*/5 * * * * *';
/** The interval DEFAULT_TICK_CRON ticks at (simulations tick the engine at the same pace). */
export const DEFAULT_TICK_MS = 5_000;

/**
 * Ticks from node-cron; a tick still running when the next is due is skipped rather than stacked. The skip is
 * ours, not node-cron's `noOverlap`: that option prints a warning on stderr for every skipped run, which with
 * a slow resolver or service was a line a second in `sync --watch` (2,816 lines in 55 min). A skipped tick is
 * normal here — the next one plans from the mirror and loses nothing.
 */
export function cronScheduler(expression: string = DEFAULT_TICK_CRON): TickScheduler {
  return {
    start(onTick) {
      let running = false;
      const guarded = async () => {
        if (running) return;
        running = true;
        try {
          await onTick();
        } finally {
          running = false;
        }
      };
      const task = cron.schedule(expression, guarded, { name: 'authwatch-sync' });
      return {
        async stop() {
          await task.stop();
          await task.destroy();
        },
      };
    },
  };
}

/** A scheduler whose ticks happen only when a test calls `tick()`. */
export interface ManualScheduler extends TickScheduler {
  /** Runs one tick and resolves when it finished; does nothing when not started. */
  tick(): Promise<void>;
  readonly running: boolean;
}

/** A scheduler for tests: no timers, ticks on demand. */
export function manualScheduler(): ManualScheduler {
  let handler: (() => Promise<void>) | null = null;
  return {
    start(onTick) {
      handler = onTick;
      return {
        async stop() {
          handler = null;
        },
      };
    },
    async tick() {
      if (handler) await handler();
    },
    get running() {
      return handler !== null;
    },
  };
}
