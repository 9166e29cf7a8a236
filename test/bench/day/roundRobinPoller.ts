/**
 * The 30-line peer an independent review wrote: round-robin over every domain's health and failed sources
 * (the two reads the day's alerts come from), paced at the engine's own 54 requests a minute, the domain
 * list hourly, nothing else. No tiers, no history, no score: the yardstick the engine's planner must beat.
 */
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { pollerMirror } from './pollerMirror.ts';
import type { VirtualTime } from './virtualTime.ts';

const HOUR = 3_600_000;

/** A running round-robin peer. */
export interface RoundRobinPoller {
  mirror: ReturnType<typeof pollerMirror>['mirror'];
  accountId: number;
  run(end: number): Promise<void>;
}

/** The peer for `domains`, with its own token, at `perMinute` requests a minute. */
export function startRoundRobin(
  time: VirtualTime,
  fetch: FetchLike,
  token: string,
  domains: readonly { id: number }[],
  perMinute: number,
): RoundRobinPoller {
  // Every request waits for its slot in the client's limiter, list pages too.
  const own = pollerMirror(time, fetch, token, 'Round-robin peer', perMinute);
  return {
    mirror: own.mirror,
    accountId: own.accountId,
    async run(end) {
      let listedAt = Number.NEGATIVE_INFINITY;
      for (let i = 0; ; i = (i + 1) % domains.length) {
        if (time.now() - listedAt >= HOUR) {
          if (time.now() >= end) return;
          await own.read('domains', null);
          listedAt = time.now();
        }
        for (const signal of ['health', 'failed_sources'] as const) {
          if (time.now() >= end) return;
          await own.read(signal, domains[i]!.id);
        }
      }
    },
  };
}
