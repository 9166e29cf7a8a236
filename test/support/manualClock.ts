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

/**
 * A clock that follows the real one, moved by hand on top of it: for a world where another process on the
 * real clock (a `sync --watch` child, its DNS watch) compares its own times with the service's — a service
 * standing months in the past makes every scan look older than any answer the watch just had.
 */
export function createRealTimeClock(): ManualClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
    set(date) {
      offset = new Date(date).getTime() - Date.now();
    },
  };
}
