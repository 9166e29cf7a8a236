/**
 * A fetch that hands each request to the service's Fastify app in process (app.inject): the real routes,
 * authentication, rate limiter, validation and handlers, without sockets. Each request takes a fixed
 * virtual round-trip time, so pollers spread over the clock as they would over a network.
 */
import type { FastifyInstance } from 'fastify';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import type { VirtualTime } from './virtualTime.ts';

/** What one client sent and got back. */
export interface RequestTally {
  requests: number;
  status429: number;
  /** Virtual instants of every request (for budget windows). */
  sentAt: number[];
  /** Virtual instants of every 429. */
  refusedAt: number[];
  /** Requests and answer bytes per kind (the path with its ids as {id}, e.g. /domains/{id}/health). */
  byKind: Record<string, { requests: number; bytes: number }>;
}

/** The kind of a request: its path below /api/v1 with every numeric segment as {id}. */
export function requestKind(pathname: string): string {
  return pathname.replace(/^\/api\/v1/, '').replace(/\/\d+(?=\/|$)/g, '/{id}');
}

/** A fetch into `app` on virtual time, counting into `tally`. */
export function injectFetch(
  app: FastifyInstance,
  time: VirtualTime,
  tally: RequestTally,
  roundTripMs: number,
  /** Changes a request's address before it is sent (BENCH_DAY_WHOLE_SERIES: no start_date windows). */
  rewrite?: (url: URL) => void,
): FetchLike {
  return async (request) => {
    const url = new URL(request.url);
    rewrite?.(url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => (headers[key] = value));
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    // Half the round trip before the service sees the request, half after it answered.
    await time.sleep(roundTripMs / 2);
    tally.requests += 1;
    tally.sentAt.push(time.now());
    const res = await time.hold(() =>
      app.inject({
        method: request.method as 'GET',
        url: url.pathname + url.search,
        headers,
        ...(body ? { payload: body } : {}),
      }),
    );
    const kind = (tally.byKind[requestKind(url.pathname)] ??= { requests: 0, bytes: 0 });
    kind.requests += 1;
    kind.bytes += res.rawPayload.length;
    if (res.statusCode === 429) {
      tally.status429 += 1;
      tally.refusedAt.push(time.now());
    }
    await time.sleep(roundTripMs / 2);
    // Header pairs straight into the Response (it builds its own Headers; a second one cost as much again).
    const out: [string, string][] = [];
    for (const key in res.headers) {
      const value = res.headers[key];
      if (value !== undefined) out.push([key, Array.isArray(value) ? value.join(', ') : String(value)]);
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    const payload = res.rawPayload;
    const answer = empty
      ? null
      : new Uint8Array(payload.buffer as ArrayBuffer, payload.byteOffset, payload.byteLength);
    return new Response(answer, { status: res.statusCode, headers: out });
  };
}

/** A tally with nothing counted yet. */
export function newTally(): RequestTally {
  return { requests: 0, status429: 0, sentAt: [], refusedAt: [], byKind: {} };
}
