import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/api/apiError.ts';
import type { LooseApi, LooseCallInit } from '../../../../main/core/sync/looseApi.ts';
import { fetchSignal, fetchWindow, incrementalStart } from '../../../../main/core/sync/signalFetcher.ts';

const NOW = Date.parse('2026-06-15T12:00:00Z');

/** A fake client answering from a table of path → data, recording every call. */
function fakeApi(answers: Record<string, unknown | ((init?: LooseCallInit) => unknown)>) {
  const calls: { path: string; init?: LooseCallInit }[] = [];
  const answer = (path: string, init?: LooseCallInit) => {
    calls.push({ path, ...(init ? { init } : {}) });
    const a = answers[path];
    if (a instanceof ApiError) throw a;
    if (a === undefined)
      throw new ApiError({
        status: 404,
        code: 'not_found',
        message: 'nope',
        requestId: 'r',
        retryable: false,
      });
    return typeof a === 'function' ? (a as (i?: LooseCallInit) => unknown)(init) : a;
  };
  const api: LooseApi = {
    baseUrl: 'http://x/api/v1',
    get: async (path, init) => ({ data: answer(path, init), requestId: 'r', status: 200, envelope: {} }),
    post: async () => {
      throw new Error('no');
    },
    patch: async () => {
      throw new Error('no');
    },
    delete: async () => {
      throw new Error('no');
    },
    async *paginate(path, init) {
      const items = answer(path, init) as unknown[];
      yield* items;
    },
  };
  return { api, calls };
}

const event = (id: number, at: string) => ({
  id,
  record_type: 'spf',
  action: 'disconnected',
  record_value: null,
  status_before: 'connected',
  status_after: 'disconnected',
  occurred_at: at,
});

describe('fetchWindow', () => {
  it('backfills 90 days the first time, then starts on the day of the newest event held', () => {
    expect(fetchWindow('dns_changes', NOW, null)).toEqual({ start: '2026-03-17', end: '2026-06-15' });
    expect(fetchWindow('dns_changes', NOW, '2026-06-14T23:59:00Z')).toEqual({
      start: '2026-06-14',
      end: '2026-06-15',
    });
  });

  it('asks for the interface’s default 30-day window for non-incremental signals', () => {
    expect(fetchWindow('failed_sources', NOW, null)).toEqual({ start: '2026-05-16', end: '2026-06-15' });
  });

  it('ignores a last-seen date in the future or unreadable and backfills instead', () => {
    expect(fetchWindow('dns_changes', NOW, '2027-01-01T00:00:00Z').start).toBe('2026-03-17');
    expect(fetchWindow('dns_changes', NOW, 'yesterday').start).toBe('2026-03-17');
  });
});

describe('incrementalStart', () => {
  const today = () => '2026-06-15T11:00:00.000Z';
  it('backfills 90 days of a history never read, though the health polls already hold today’s point', () => {
    const start = incrementalStart('health_history', null, today);
    expect(fetchWindow('health_history', NOW, start)).toEqual({ start: '2026-03-17', end: '2026-06-15' });
  });

  it('tops a history up from its own last read (a week ago), not from the newest point a health poll wrote', () => {
    const weekAgo = NOW - 7 * 86_400_000;
    const start = incrementalStart('score_history', weekAgo, today);
    expect(fetchWindow('score_history', NOW, start).start).toBe('2026-06-08');
  });

  it('reads DNS changes from the newest event held', () => {
    expect(incrementalStart('dns_changes', null, () => '2026-06-14T23:59:00Z')).toBe('2026-06-14T23:59:00Z');
    expect(incrementalStart('failed_sources', NOW, today)).toBeNull();
  });
});

describe('fetchSignal', () => {
  it('fetches DNS changes incrementally with every page, in background priority', async () => {
    const { api, calls } = fakeApi({
      '/domains/{domain_id}/dns/changes': [
        event(1, '2026-06-14T10:00:00Z'),
        event(2, '2026-06-15T09:00:00Z'),
      ],
    });
    const fetched = await fetchSignal('dns_changes', {
      api,
      domainId: 12,
      now: NOW,
      lastSeen: '2026-06-14T10:00:00Z',
    });
    expect(fetched.payload.map((e) => e.id)).toEqual([1, 2]);
    expect(fetched.window).toEqual({ start: '2026-06-14', end: '2026-06-15' });
    expect(calls[0]!.init).toMatchObject({
      params: { path: { domain_id: 12 }, query: { start_date: '2026-06-14', end_date: '2026-06-15' } },
      priority: 'background',
    });
  });

  it('asks limit-only lists for 100 items', async () => {
    const { api, calls } = fakeApi({
      '/domains/{domain_id}/failed-sources': { domain_id: 3, fqdn: 'a.example', failed_sources: [] },
    });
    await fetchSignal('failed_sources', { api, domainId: 3, now: NOW, lastSeen: null });
    expect(calls[0]!.init?.params?.query).toMatchObject({ limit: 100 });
  });

  it('composes TLS-RPT from its two calls, a part answering 404 becoming null', async () => {
    const { api, calls } = fakeApi({ '/domains/{domain_id}/tls-rpt': { enabled: true } });
    const fetched = await fetchSignal('tls_rpt', { api, domainId: 4, now: NOW, lastSeen: null });
    expect(fetched.payload).toEqual({ config: { enabled: true }, failures: null });
    expect(calls.map((c) => c.path)).toEqual([
      '/domains/{domain_id}/tls-rpt',
      '/domains/{domain_id}/tls-rpt/failures',
    ]);
  });

  it('reads a 404 as the signal’s definition declares it: absent is a null answer, otherwise it is thrown', async () => {
    // bimi_readiness declares `notFound: 'absent'` (one call, its schema takes null)...
    const { api } = fakeApi({});
    const absent = await fetchSignal('bimi_readiness', { api, domainId: 4, now: NOW, lastSeen: null });
    expect(absent.payload).toBeNull();
    // ...health `domain_gone`: the 404 goes to the job runner, which asks whether the domain left the list.
    await expect(fetchSignal('health', { api, domainId: 4, now: NOW, lastSeen: null })).rejects.toMatchObject(
      { status: 404, code: 'not_found' },
    );
  });

  it('does not read a 404 without the interface envelope (a proxy page, a cut body) as "not set up"', async () => {
    const page = new ApiError({
      status: 404,
      code: 'http_error',
      message: 'HTTP 404',
      requestId: 'r',
      retryable: false,
    });
    const { api } = fakeApi({
      '/domains/{domain_id}/tls-rpt': { enabled: true },
      '/domains/{domain_id}/tls-rpt/failures': page,
    });
    await expect(fetchSignal('tls_rpt', { api, domainId: 4, now: NOW, lastSeen: null })).rejects.toBe(page);
  });

  it('throws a typed malformed_response naming the bad field when the data has the wrong shape', async () => {
    const { api } = fakeApi({ '/domains/{domain_id}/security-score': { domain_id: 1, score: 'excellent' } });
    const error = await fetchSignal('security_score', { api, domainId: 1, now: NOW, lastSeen: null }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'malformed_response', status: 200 });
    expect((error as ApiError).message).toMatch(/security_score: .*score/);
  });

  it('passes API errors through unchanged', async () => {
    const boom = new ApiError({
      status: 503,
      code: 'score_unavailable',
      message: 'later',
      requestId: 'q',
      retryable: true,
    });
    const { api } = fakeApi({ '/domains/{domain_id}/security-score': boom });
    await expect(fetchSignal('security_score', { api, domainId: 1, now: NOW, lastSeen: null })).rejects.toBe(
      boom,
    );
  });
});
