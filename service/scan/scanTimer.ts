/**
 * Periodic guard scans for a running service (`npm run service -- --scan-interval <seconds>`): every
 * `intervalMs` every domain is scanned as of the service clock. Runs never overlap (the next one is planned
 * when the previous one ends), and stop() waits for a run in progress so the database is not closed under it.
 * Off unless asked for; tests run scans through POST /_sandbox/scan instead.
 */
import type { ServiceContext } from '../http/operation.ts';
import { scanAll, type ScanOutcome } from './guardScan.ts';

/** A started timer. */
export interface ScanTimer {
  /** Cancels further runs and resolves once no run is in progress. */
  stop(): Promise<void>;
}

/** Starts scanning every `intervalMs` (first run after one interval); failures go to `onError`. */
export function startScanTimer(
  ctx: Pick<ServiceContext, 'db' | 'resolver' | 'clock'>,
  intervalMs: number,
  hooks: { onRun?: (outcomes: ScanOutcome[]) => void; onError?: (err: unknown) => void } = {},
): ScanTimer {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new RangeError('intervalMs must be positive');
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const plan = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      // Started inside the promise chain so that even a synchronous failure reaches onError.
      running = Promise.resolve()
        .then(() => scanAll(ctx, ctx.clock()))
        .then((outcomes) => hooks.onRun?.(outcomes))
        .catch((err: unknown) => hooks.onError?.(err))
        .finally(() => {
          running = null;
          plan();
        });
    }, intervalMs);
    // A pending scan must not keep the process alive on its own.
    timer.unref();
  };
  plan();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
