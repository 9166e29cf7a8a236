/**
 * The engine under test, wired as the facade wires it (main/core/app/wiring.ts): a mirror, the account's
 * shaped rate budget (60/minute, 6 kept for edits), the typed API client with the same retry settings, and
 * the SyncEngine ticking at the scheduler's pace. Only the mirror lives in memory and the fetch goes to the
 * in-process service.
 */
import { createApiClient, RateBudget } from '../../../shared/api/client.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openMirror } from '../../support/openMirror.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import { budgetShape } from '../../../main/core/sync/budgetShape.ts';
import type { SyncEvent } from '../../../main/core/sync/events.ts';
import type { LooseApi } from '../../../main/core/sync/looseApi.ts';
import { DEFAULT_TICK_MS as TICK_MS } from '../../../main/core/sync/scheduler.ts';
import { SyncEngine } from '../../../main/core/sync/syncEngine.ts';
import type { VirtualTime } from './virtualTime.ts';

/** The token's limit and what the app keeps for the user's edits (the defaults of the sync settings). */
export const LIMIT_PER_MINUTE = 60;
export const EDIT_HEADROOM = 6;

/** A running engine: its mirror and account. */
export interface EngineUnderTest {
  mirror: Mirror;
  accountId: number;
  /** Ticks at the production pace (every 5 virtual seconds) until `end` (a sleeper chain on the virtual clock). */
  run(end: number): Promise<void>;
  close(): void;
}

/** Wires the engine for one account whose token is `token`. */
export function startEngine(
  time: VirtualTime,
  fetch: FetchLike,
  token: string,
  onEvent: (event: SyncEvent) => void = () => undefined,
  /**
   * How long before now the account was added (its createdAt in the mirror, which starts its first day:
   * main/core/sync/firstDay.ts); 0 — added now, its first sync starting at once — as the app does it.
   */
  addedBeforeMs = 0,
): EngineUnderTest {
  const clock = { now: time.now, sleep: time.sleep, random: () => 0.5 };
  // The mirror's clock stands `addedBeforeMs` back while the account is added, then keeps the day's time:
  // the account's row is what the app wrote the day it was added, and nothing was synced since.
  let behindMs = addedBeforeMs;
  const mirror = openMirror(':memory:', { clock: { now: () => time.now() - behindMs } });
  const account = mirror.upsertAccount({ label: 'Bench MSP', baseUrl: 'http://service.bench/api/v1' });
  behindMs = 0;
  const shape = budgetShape(LIMIT_PER_MINUTE, EDIT_HEADROOM);
  const budget = new RateBudget({ ...shape, clock });
  const engine = new SyncEngine({
    mirror,
    apiFor: (_account, onRequest) =>
      createApiClient({
        baseUrl: account.baseUrl,
        token,
        fetch,
        clock,
        timeoutMs: 15_000,
        retry: { maxAttempts: 3, maxRetryAfterMs: 5_000 },
        budgetMaxWaitMs: 30_000,
        budget,
        onEvent: (event) => {
          if (event.type === 'attempt') onRequest();
        },
      }) as unknown as LooseApi,
    budgetFor: () => budget,
    ratePerMinute: () => shape.refillPerMinute,
    clock,
    // Events go to `onEvent` only: a day's events kept in a list grew the heap all day for no reader.
    emit: onEvent,
    afterWrite: async () => undefined,
  });
  return {
    mirror,
    accountId: account.id,
    async run(end) {
      // On the clock's 5 s marks as the cron scheduler ticks, a tick still running at a mark skipping it:
      // sleeping 5 s after each tick drifted the ticks by their round trips (5.2 s), and the budget's 60 s
      // window then freed each slot a tick late (the sync at 54.8 a minute where 57 was lent).
      let at = Math.floor(time.now() / TICK_MS) * TICK_MS + TICK_MS;
      while (at <= end) {
        await time.sleepUntil(at);
        await engine.tick();
        at = Math.max(at + TICK_MS, Math.floor(time.now() / TICK_MS) * TICK_MS + TICK_MS);
      }
    },
    close: () => mirror.close(),
  };
}
