/** A clock tests move by hand: it stands still until advanced. */

/** A controllable clock; pass `clock.now` where a `() => Date` is expected. */
export interface ManualClock {
  now: () => Date;
  advance(ms: number): void;
  set(date: Date | string): void;
}

/** Creates a clock standing at `start`. */
export function createManualClock(start: Date | string = '2026-06-15T12:00:00.000Z'): ManualClock {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance(ms) {
      t += ms;
    },
    set(date) {
      t = new Date(date).getTime();
    },
  };
}
