import { describe, expect, it } from 'vitest';
import type { PanelResult } from '../../../shared/bridge/panelData.ts';
import { changeWords } from '../../../renderer/src/lib/auditHistory.ts';
import { auditMatcher, searchAudit, SEARCH_PAGES } from '../../../renderer/src/lib/auditSearch.ts';

/** A log of `total` entries, newest first: entry i by user (i % 3) + 1 on domain (i % 12) + 1. */
function log(total: number, options: { missingFrom?: number } = {}) {
  const asked: number[] = [];
  const read = (page: number): Promise<PanelResult<'audit_logs'>> => {
    asked.push(page);
    if (options.missingFrom !== undefined && page >= options.missingFrom)
      return Promise.resolve({
        panel: 'audit_logs',
        data: null,
        pagination: null,
        fetchedAt: null,
        source: 'cache',
        error: { code: 'network_error', message: 'offline', status: 0, missingScope: null },
      });
    const first = (page - 1) * 100;
    const data = Array.from({ length: Math.max(0, Math.min(100, total - first)) }, (_, k) => {
      const i = first + k;
      return {
        id: total - i,
        request_id: `r${i}`,
        action: 'domain.update',
        method: 'PATCH' as const,
        path: `/api/v1/domains/${(i % 12) + 1}`,
        status_code: 200,
        user_id: (i % 3) + 1,
        created_at: new Date(Date.UTC(2026, 10, 1) - i * 60_000).toISOString(),
      };
    });
    return Promise.resolve({
      panel: 'audit_logs',
      data,
      pagination: { page, limit: 100, total, has_more: first + 100 < total },
      fetchedAt: '2026-11-26T10:00:00.000Z',
      source: 'live',
      error: null,
    });
  };
  return { read, asked };
}

describe('audit search over the whole log', () => {
  it('finds a person’s entries on every page, not only the first', async () => {
    const { read, asked } = log(250);
    const found = await searchAudit(read, auditMatcher(null, 2));
    expect(asked).toEqual([1, 2, 3]);
    expect(found.complete).toBe(true);
    expect(found.scanned).toBe(250);
    expect(found.matches).toHaveLength(83); // i % 3 === 1 for i in 0..249: 1, 4, …, 247
    expect((found.matches.at(-1) as { request_id: string }).request_id).toBe('r247');
  });

  it('a domain is matched exactly: domain 1 does not find /domains/10, 11 or 12', async () => {
    const { read } = log(120);
    const found = await searchAudit(read, auditMatcher(1, null));
    expect(found.matches.map((m) => (m as { path: string }).path)).toEqual(
      Array(10).fill('/api/v1/domains/1'),
    );
  });

  it('stops at the bound and says the search did not reach the oldest entries', async () => {
    const { read, asked } = log(5_000);
    const found = await searchAudit(read, auditMatcher(null, 1));
    expect(asked).toHaveLength(SEARCH_PAGES);
    expect(found).toMatchObject({ complete: false, scanned: SEARCH_PAGES * 100 });
  });

  it('a page neither the service nor the mirror has stops the search short, keeping what was found', async () => {
    const { read } = log(300, { missingFrom: 2 });
    const found = await searchAudit(read, auditMatcher(null, 1));
    expect(found).toMatchObject({ complete: false, scanned: 100 });
    expect(found.matches).toHaveLength(34);
  });
});

describe('before → after in words', () => {
  it('names the field and both values', () => {
    expect(changeWords({ field: 'p', before: 'quarantine', after: 'reject' })).toBe(
      'Policy: quarantine → reject',
    );
    expect(changeWords({ field: 'role', before: 'Viewer', after: 'Admin' })).toBe('Role: Viewer → Admin');
  });
  it('a removed record keeps its value; a new one shows what was published', () => {
    expect(changeWords({ field: 'record', before: 'v=spf1 -all', after: null })).toBe(
      'Record removed — it was v=spf1 -all',
    );
    expect(changeWords({ field: 'record', before: null, after: 'v=DMARC1; p=none' })).toBe(
      'Record published: v=DMARC1; p=none',
    );
    expect(changeWords({ field: 'member', before: 'Vera', after: null })).toBe('Member Vera removed');
    expect(changeWords({ field: 'pct', before: null, after: '50' })).toBe(
      'Percentage of mail the policy applies to set to 50',
    );
  });
});
