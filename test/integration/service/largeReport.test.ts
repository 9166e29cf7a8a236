// The 2,286-record aggregate report (test/fixtures/dmarc-aggregate, a real receiver's report) ingested while DNS
// never answers: the upload still completes — the report's deadline names every source DNS has not named by its
// address — and the figures are what the XML says (2,286 records, 2,286 messages, every one failing DMARC).
// No wall time is asserted here; `npm run bench` prints it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolve } from '../../../shared/email-auth/dns.ts';
import { startService, stopService } from '../../support/serviceHarness.ts';
import type { ServiceHarness } from '../../support/serviceHarness.ts';
import { addAccount, createDomain, ingest } from './reportsSupport.ts';

const LARGE_REPORT = readFileSync(
  new URL('../../fixtures/dmarc-aggregate/!large-example.com!1711897200!1711983600.xml', import.meta.url),
);
/** Distinct source IPs in the file, as its <source_ip> elements list them. */
const SOURCE_IPS = new Set(
  [...LARGE_REPORT.toString('utf8').matchAll(/<source_ip>([^<]+)</g)].map((m) => m[1]!),
);

let svc: ServiceHarness;
let token: string;
let domainId: number;
let queries = 0;

beforeAll(async () => {
  // DNS that never answers, as with no network and no timeout: every lookup stays pending.
  const silent = ((): Promise<never> => {
    queries++;
    return new Promise<never>(() => {});
  }) as unknown as DnsResolve;
  svc = await startService({ resolver: silent });
  const account = await addAccount(svc, 'Large Reports Co');
  token = (await svc.createToken(['domains:read', 'domains:write'], { userId: account.ownerUserId })).token;
  domainId = await createDomain(svc, token, 'example.com');
});
afterAll(() => stopService(svc));

describe('the 2,286-record report with DNS that never answers', () => {
  it(
    'is stored with the figures of the file, each source named by its address',
    { timeout: 30_000 },
    async () => {
      expect(SOURCE_IPS.size).toBe(2286);
      const stored = await ingest(svc, 'dmarc', LARGE_REPORT, { contentType: 'application/xml' });
      expect(stored).toMatchObject({ domain_id: domainId, records: 2286, messages: 2286 });
      expect(queries).toBeGreaterThan(0);

      const query = { start_date: '2024-03-31', end_date: '2024-04-01' };
      const volume = await svc.call('GET', `/domains/${domainId}/mail-volume`, { token, query });
      expect(volume.status).toBe(200);
      expect(volume.body.data.totals).toEqual({
        total: 2286,
        delivered: 2286,
        quarantined: 0,
        rejected: 0,
        dmarc_pass: 0,
        dmarc_fail: 2286,
      });

      const names = svc.db
        .prepare<[], { source_name: string; source_ip: string }>(
          'SELECT source_name, source_ip FROM dmarc_report_records',
        )
        .all();
      expect(names).toHaveLength(2286);
      expect(names.every((r) => r.source_name === r.source_ip && SOURCE_IPS.has(r.source_ip))).toBe(true);

      const failed = await svc.call('GET', `/domains/${domainId}/failed-sources`, {
        token,
        query: { ...query, limit: 100 },
      });
      expect(failed.body.data.failed_sources).toHaveLength(100);
      for (const source of failed.body.data.failed_sources) {
        expect(SOURCE_IPS.has(source.source_name)).toBe(true);
        expect(source).toMatchObject({ total_count: 1, dmarc: { pass: 0, fail: 1 }, status: 'failing' });
      }
    },
  );
});
