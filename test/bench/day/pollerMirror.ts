/**
 * What the benchmark's simple pollers (the 30-line round-robin peer, the paced cron job) share: a mirror of
 * their own with one account, a stock API client (no budget; waits out a 429's Retry-After like urllib3's
 * Retry or got's retry) behind a rate limiter that gives every HTTP request its own slot (as a script's
 * limiter around its HTTP calls would: each page of the domain list and each retry waits its turn, so no
 * sliding 60 s holds more than the pace), and one read written through the engine's own decoders and
 * mirror, so the same alert rules judge every poller and only the scheduling differs.
 */
import { createApiClient } from '../../../shared/api/client.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import type { SignalName } from '../../../main/core/signals/catalog.ts';
import type { LooseApi } from '../../../main/core/sync/looseApi.ts';
import { fetchSignal, INCREMENTAL } from '../../../main/core/sync/signalFetcher.ts';
import type { VirtualTime } from './virtualTime.ts';

/** A simple poller's mirror, account and client. */
export interface PollerMirror {
  mirror: Mirror;
  accountId: number;
  /** Reads one signal (of a domain, or the domain list for null) into the mirror; false when it failed. */
  read(signal: SignalName, domainId: number | null): Promise<boolean>;
}

/** Opens a poller's mirror and client on `fetch` with `token`, sending at most `perMinute` requests a minute. */
export function pollerMirror(
  time: VirtualTime,
  fetch: FetchLike,
  token: string,
  label: string,
  perMinute: number,
): PollerMirror {
  const slot = pacer(time, perMinute);
  const paced: FetchLike = async (request) => {
    await slot();
    return fetch(request);
  };
  const clock = { now: time.now, sleep: time.sleep, random: () => 0.5 };
  const mirror = openMirror(':memory:', { clock, status: STATUS_MODEL });
  const account = mirror.upsertAccount({ label, baseUrl: 'http://service.bench/api/v1' });
  const api = createApiClient({
    baseUrl: account.baseUrl,
    token,
    fetch: paced,
    clock,
    timeoutMs: 15_000,
    retry: { maxAttempts: 20, maxRetryAfterMs: 60_000 },
  }) as unknown as LooseApi;
  return {
    mirror,
    accountId: account.id,
    async read(signal, domainId) {
      try {
        const lastSeen =
          domainId !== null && INCREMENTAL.has(signal) ? mirror.lastSeen(account.id, signal, domainId) : null;
        const fetched = await fetchSignal(signal, { api, domainId, now: time.now(), lastSeen });
        mirror.writeSignal({
          accountId: account.id,
          domainId,
          signal,
          payload: fetched.payload,
          fetchedAt: time.now(),
          ...(fetched.window ? { window: fetched.window } : {}),
        } as Parameters<Mirror['writeSignal']>[0]);
        return true;
      } catch {
        // Whatever failed after the client's retries waits for the next turn.
        return false;
      }
    },
  };
}

/** Paces calls at `perMinute`: each waits for its slot (start times 60/perMinute s apart), never bursting. */
function pacer(time: VirtualTime, perMinute: number): () => Promise<void> {
  const gap = 60_000 / perMinute;
  let next = time.now();
  return async () => {
    next = Math.max(next, time.now());
    const at = next;
    next += gap;
    await time.sleepUntil(Math.ceil(at));
  };
}
