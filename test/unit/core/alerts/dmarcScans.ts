/**
 * The DMARC record rules' tests, written once: example.com's health scans an hour apart from 09:00, each with
 * its live DMARC record, and the user's DMARC edit made in this app between the first and the second.
 */
import { expect } from 'vitest';
import { DOMAIN_ID, health, mirrorWithDomain, write } from '../mirror/payloads.ts';

/** A health scan of example.com whose live DMARC record is `record`. */
function scan(at: string, record: string | null) {
  return { ...health(at), dmarc_record: record };
}

/** A mirror whose first scan (a baseline: no alert) saw `first`; `next` writes the following scan. */
export function dmarcScans(first: string | null) {
  const { mirror, accountId } = mirrorWithDomain();
  const at = (n: number) => `2025-03-01T${String(9 + n).padStart(2, '0')}:00:00Z`;
  expect(write(mirror, accountId, 'health', scan(at(0), first), at(0)).alerts).toEqual([]);
  let n = 0;
  return {
    mirror,
    accountId,
    next: (record: string | null) => {
      n += 1;
      return write(mirror, accountId, 'health', scan(at(n), record), at(n));
    },
    /** The user publishes `tags` through the app's DMARC edit at 09:30 (after the first scan). */
    editInApp: (tags: Record<string, string>) =>
      mirror.recordPendingChange({
        accountId,
        domainId: DOMAIN_ID,
        protocol: 'dmarc',
        summary: Object.entries(tags)
          .map(([tag, value]) => `${tag}=${value}`)
          .join('; '),
        expect: { kind: 'present', tags },
        at: '2025-03-01T09:30:00Z',
      }),
  };
}
