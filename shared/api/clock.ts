/**
 * Time and chance as the client sees them. Tests replace all three to make backoff and the rate budget
 * deterministic; production uses the real ones.
 */
export interface ApiClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1), used for backoff jitter. */
  random(): number;
}

/** Sleep on a real timer, cancellable through an AbortSignal. */
export function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wall clock, real timers and Math.random. */
export const systemClock: ApiClock = {
  now: () => Date.now(),
  sleep: realSleep,
  random: () => Math.random(),
};
