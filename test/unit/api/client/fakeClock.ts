import type { ApiClock } from '../../../../shared/api/clock.ts';

/** A clock whose sleeps return at once, advance time and are recorded; random is scripted. */
export interface FakeClock extends ApiClock {
  sleeps: number[];
  advance(ms: number): void;
}

/** `randoms` are returned in turn (the last one repeats); time starts at `start`. */
export function fakeClock(randoms: number[] = [0.5], start = Date.UTC(2025, 0, 1)): FakeClock {
  let now = start;
  let next = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
    random() {
      const value = randoms[Math.min(next, randoms.length - 1)] ?? 0.5;
      next += 1;
      return value;
    },
  };
}
