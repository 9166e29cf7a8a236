/**
 * The alternative a user would otherwise write: a cron job that, every 5 minutes, fetches every core signal
 * of every domain one after another with a stock HTTP client that waits out a 429's Retry-After and tries
 * again (as urllib3's Retry or got's retry do). It knows nothing else of the limit: it runs into it once per
 * window. A round still running when the next is due makes cron skip that one (flock -n).
 * Its answers go through the engine's own decoders into a mirror of its own, so the same alert rules judge
 * both pollers: only the scheduling differs.
 */
import { createApiClient } from '../../../shared/api/client.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openMirror } from '../../../main/core/mirror/index.ts';
import type { Mirror } from '../../../main/core/mirror/types.ts';
import type { LooseApi } from '../../../main/core/sync/looseApi.ts';
import { fetchSignal, INCREMENTAL } from '../../../main/core/sync/signalFetcher.ts';
import { CORE_SIGNALS } from '../../../main/core/sync/syncJobs.ts';
import type { VirtualTime } from './virtualTime.ts';

const ROUND_MS = 5 * 60_000;

/** A running naive poller. */
export interface NaivePoller {
  mirror: Mirror;
  accountId: number;
  rounds: { started: number; skipped: number };
  run(end: number): Promise<void>;
  close(): void;
}

/** A naive poller of `domains` with its own token. */
export function startNaive(
  time: VirtualTime,
  fetch: FetchLike,
  token: string,
  domains: readonly { id: number; fqdn: string }[],
): NaivePoller {
  const clock = { now: time.now, sleep: time.sleep, random: () => 0.5 };
  const mirror = openMirror(':memory:', { clock });
  const account = mirror.upsertAccount({ label: 'Naive cron', baseUrl: 'http://service.bench/api/v1' });
  const api = createApiClient({
    baseUrl: account.baseUrl,
    token,
    fetch,
    clock,
    timeoutMs: 15_000,
    // A stock client: no budget, retries a refused call after the server's Retry-After.
    retry: { maxAttempts: 20, maxRetryAfterMs: 60_000 },
  }) as unknown as LooseApi;
  const rounds = { started: 0, skipped: 0 };
  let running = false;

  const round = async (end: number) => {
    // The script starts by listing the domains, as it must to know them.
    try {
      const list = await fetchSignal('domains', { api, domainId: null, now: time.now(), lastSeen: null });
      mirror.writeSignal({
        accountId: account.id,
        domainId: null,
        signal: 'domains',
        payload: list.payload,
        fetchedAt: time.now(),
      });
    } catch {
      // Refused or failed: the domains already known are polled anyway.
    }
    const known = mirror.listDomains(account.id).length ? domains : [];
    for (const domain of known) {
      for (const signal of CORE_SIGNALS) {
        // The day is over: a round still running stops where it is (the benchmark judges only the day).
        if (time.now() >= end) return;
        try {
          const lastSeen = INCREMENTAL.has(signal) ? mirror.lastSeen(account.id, signal, domain.id) : null;
          const fetched = await fetchSignal(signal, { api, domainId: domain.id, now: time.now(), lastSeen });
          mirror.writeSignal({
            accountId: account.id,
            domainId: domain.id,
            signal,
            payload: fetched.payload,
            fetchedAt: time.now(),
            ...(fetched.window ? { window: fetched.window } : {}),
          } as Parameters<Mirror['writeSignal']>[0]);
        } catch {
          // Any failure left after the retries: this signal waits for the next round.
        }
      }
    }
  };

  return {
    mirror,
    accountId: account.id,
    rounds,
    async run(end) {
      const pending: Promise<void>[] = [];
      for (let at = time.now(); at < end; at += ROUND_MS) {
        await time.sleepUntil(at);
        if (running) {
          rounds.skipped += 1;
          continue;
        }
        running = true;
        rounds.started += 1;
        pending.push(round(end).finally(() => (running = false)));
      }
      await Promise.all(pending);
    },
    close: () => mirror.close(),
  };
}
