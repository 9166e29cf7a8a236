/**
 * The engine of the simulated week as `authwatch sync --watch` runs it: the runtime every shell opens
 * (openRuntime: the writer lock, the process's heap setting, the facade with sync, alert delivery to a
 * notifier, channels' outbox, digests, metrics switch) over a mirror on a FILE with the
 * app's settings (WAL, synchronous=FULL, the default sync settings), the account added through the facade
 * (its token checked with /auth/me), and the scheduler's 5-s ticks — on the virtual clock. What differs from
 * the real run: the clock, the fetch (to the service's process, see serviceClient.ts), a notifier that
 * counts instead of printing, tokens in memory instead of the keychain, and no DNS watch (its per-second
 * ticks and per-TTL queries would cost more than the sync itself to simulate; the real-time check of
 * `authwatch sync --watch` runs it).
 */
import { memorySecretStore } from '../../../main/core/accounts/memorySecretStore.ts';
import type { Authwatch } from '../../../main/core/app.ts';
import { openRuntime } from '../../../main/core/runtime/openRuntime.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import { DEFAULT_TICK_MS, type TickScheduler } from '../../../main/core/sync/scheduler.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import type { VirtualTime } from '../day/virtualTime.ts';

/** The engine of the week: its facade, mirror and account. */
export interface WeekEngine {
  app: Authwatch;
  mirror: Mirror;
  accountId: number;
  /** Alerts the notifier was handed. */
  notified(): number;
  /** Starts the 5-s ticks (as the shells start the runtime). */
  start(): void;
  /** Stops the sync, closes the mirror and frees the writer lock. */
  close(): Promise<void>;
}

/**
 * Ticks every DEFAULT_TICK_MS of virtual time, as node-cron does in the app: a tick still running when the
 * next is due is skipped (noOverlap), never stacked.
 */
export function virtualScheduler(time: VirtualTime): TickScheduler {
  return {
    start(onTick) {
      let stopped = false;
      let running: Promise<void> | null = null;
      const loop = async () => {
        while (!stopped) {
          await time.sleep(DEFAULT_TICK_MS - (time.now() % DEFAULT_TICK_MS));
          if (stopped || running) continue;
          running = onTick().finally(() => (running = null));
        }
      };
      void loop();
      return {
        async stop() {
          stopped = true;
          await running;
        },
      };
    },
  };
}

/** Opens the mirror file, wires the facade on `fetch` and adds the account with `token`. */
export async function startWeekEngine(o: {
  file: string;
  time: VirtualTime;
  fetch: FetchLike;
  token: string;
}): Promise<WeekEngine> {
  const clock = { now: o.time.now, sleep: o.time.sleep, random: () => 0.5 };
  let notified = 0;
  const runtime = openRuntime({
    db: o.file,
    role: 'writer',
    purpose: 'the simulated week',
    secrets: memorySecretStore(),
    fetch: o.fetch,
    clock,
    scheduler: virtualScheduler(o.time),
    notifier: { notify: () => void (notified += 1) },
  });
  const { app, mirror } = runtime;
  // The token check (GET /auth/me) waits on the virtual clock: move it until the account is added.
  let done = false;
  const adding = app
    .addAccount({ label: 'Bench MSP', baseUrl: 'https://service.bench/api/v1', token: o.token })
    .finally(() => (done = true));
  await o.time.drain(() => done, 60_000);
  const added = await adding;
  return {
    app,
    mirror,
    accountId: added.account.id,
    notified: () => notified,
    start: () => runtime.start(),
    close: () => runtime.close(),
  };
}
