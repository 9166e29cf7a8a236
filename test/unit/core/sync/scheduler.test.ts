import { describe, expect, it, vi } from 'vitest';
import { cronScheduler, manualScheduler } from '../../../../main/core/sync/scheduler.ts';

describe('schedulers', () => {
  it('node-cron ticks on its schedule until stopped, never stacking a slow tick, and says nothing of the skips', async () => {
    const stderr = vi.spyOn(process.stderr, 'write');
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const log = vi.spyOn(console, 'log');
    let ticks = 0;
    let running = 0;
    let maxRunning = 0;
    const handle = cronScheduler('* * * * * *').start(async () => {
      ticks += 1;
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 1500)); // slower than the 1-second schedule
      running -= 1;
    });
    await new Promise((r) => setTimeout(r, 3300));
    await handle.stop();
    const stoppedAt = ticks;
    await new Promise((r) => setTimeout(r, 1200));
    expect(stoppedAt).toBeGreaterThanOrEqual(1);
    expect(maxRunning).toBe(1);
    expect(ticks).toBe(stoppedAt);
    // A skipped tick is routine (a slow resolver or service): nothing printed for it.
    const printed = [stderr, warn, error, log].flatMap((spy) => spy.mock.calls.map((c) => String(c[0])));
    vi.restoreAllMocks();
    expect(printed.filter((line) => /overlap|blocked|still running/i.test(line))).toEqual([]);
  }, 10_000);

  it('the manual scheduler ticks only when told, and not after stop', async () => {
    const scheduler = manualScheduler();
    let ticks = 0;
    await scheduler.tick();
    const handle = scheduler.start(async () => void (ticks += 1));
    await scheduler.tick();
    await scheduler.tick();
    await handle.stop();
    await scheduler.tick();
    expect(ticks).toBe(2);
    expect(scheduler.running).toBe(false);
  });
});
