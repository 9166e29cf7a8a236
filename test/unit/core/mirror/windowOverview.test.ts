/**
 * The window's overview (Mirror.windowOverview) shows how old each domain's data is as one time, the newest
 * success of any of its signals, and its newest sync error; it reads them from sync_state in aggregate, so
 * it must say what the full overview's per-signal ages say.
 */
import { describe, expect, it } from 'vitest';
import type { Mirror, MirrorOverviewRow } from '../../../../main/core/mirror/types.ts';
import { DOMAIN_ID, dnsEvent, health, mirrorWithDomain, write } from './payloads.ts';

const error = (code: string) => ({
  status: 503,
  code,
  message: `${code} from the service`,
  requestId: `req-${code}`,
  retryable: true,
});

/** The window row of the full overview: its newest success of any signal (what windowOverview promises). */
function fromFullOverview(mirror: Mirror, accountId: number) {
  return mirror.overview(accountId).map(({ data, ...row }: MirrorOverviewRow) => {
    const times = Object.values(data)
      .map((a) => a?.lastSuccessAt)
      .filter((t): t is string => !!t)
      .sort();
    return { ...row, dataAt: times.at(-1) ?? null };
  });
}

describe('the window overview', () => {
  it('a domain not yet read shows no data time; a read one its newest success and newest error', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(1, 'spf', 'connected', '2025-02-01T00:00:00Z')],
      '2025-03-01T08:00:00Z',
    );
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    mirror.recordSyncError({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'security_score',
      error: error('busy'),
      at: '2025-03-01T09:30:00Z',
    });
    mirror.recordSyncError({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'dns_changes',
      error: error('late'),
      at: '2025-03-01T09:40:00Z',
    });

    const rows = mirror.windowOverview(accountId);
    const read = rows.find((r) => r.domainId === DOMAIN_ID)!;
    const unread = rows.find((r) => r.domainId !== DOMAIN_ID)!;
    expect(read.dataAt).toBe('2025-03-01T09:01:00.000Z');
    expect(read.lastError).toMatchObject({
      code: 'late',
      signal: 'dns_changes',
      at: '2025-03-01T09:40:00.000Z',
    });
    expect(unread).toMatchObject({ fqdn: 'example.org', dataAt: null, lastError: null });
    // All accounts or one: the same rows, and what the per-signal overview says.
    expect(mirror.windowOverview()).toEqual(rows);
    expect(rows).toEqual(fromFullOverview(mirror, accountId));
    mirror.close();
  });
});
