/**
 * One ticking "now" for every relative time on screen: a single timer (every 30 s) instead of one per
 * <RelativeTime>, so a table of 1,000 ages costs one interval. It starts with the first reader.
 */
class Tick {
  #now = $state(Date.now());
  #started = false;

  get now(): number {
    if (!this.#started && typeof setInterval === 'function') {
      this.#started = true;
      setInterval(() => (this.#now = Date.now()), 30_000);
    }
    return this.#now;
  }
}

export const tick = new Tick();
