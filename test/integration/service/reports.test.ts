// Report ingestion over real HTTP: every real fixture is stored with the counts the file holds (numbers as
// test/unit/service/ingest/ derived them by hand), unreadable files and reports about unknown domains are
// refused without any change, the same report is stored once, and each source is named by forward-confirmed
// reverse DNS, by the well-known sender networks, or by its address.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  aggregateXml,
  contentTypeOf,
  createDomain,
  ingest,
  listFixtures,
  readFixture,
  reportTableCounts,
  startReportsWorld,
  upload,
  type ReportsWorld,
} from './reportsSupport.ts';
import { stopService } from '../../support/serviceHarness.ts';

let world: ReportsWorld;
const domainIds = new Map<string, number>();

interface DmarcFixture {
  /** policy_published/domain: the domain the report is stored for. */
  domain: string;
  /** UTC day of date_range/begin (where the messages count). */
  day: string;
  records: number;
  messages: number;
  dmarcPass: number;
  /** Messages per source IP. */
  bySourceIp: Record<string, number>;
}

// Per file, what it says (the same figures as test/unit/service/ingest/dmarcAggregate.fixtures.test.ts).
const DMARC_FIXTURES: Record<string, DmarcFixture> = {
  '!example.com!1538204542!1538463818.xml': {
    domain: 'example.com',
    day: '2018-10-01',
    records: 1,
    messages: 1,
    dmarcPass: 0,
    bySourceIp: { '12.20.127.122': 1 },
  },
  'addisonfoods.com!example.com!1536105600!1536191999.xml': {
    domain: 'example.com',
    day: '2018-09-05',
    records: 1,
    messages: 1,
    dmarcPass: 0,
    bySourceIp: { '109.203.100.17': 1 },
  },
  'empty_reason.xml': {
    domain: 'example.com',
    day: '2024-01-25',
    records: 1,
    messages: 2,
    dmarcPass: 2,
    bySourceIp: { '198.51.100.123': 2 },
  },
  'estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip': {
    domain: 'example.com',
    day: '2018-09-13',
    records: 1,
    messages: 1,
    dmarcPass: 0,
    bySourceIp: { '148.243.137.254': 1 },
  },
  'example.net!example.com!1529366400!1529452799.xml': {
    domain: 'example.com',
    day: '2018-06-19',
    records: 1,
    messages: 1,
    dmarcPass: 0,
    bySourceIp: { '199.230.200.36': 1 },
  },
  'fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz': {
    domain: 'indemed.com',
    day: '2018-01-16',
    records: 1,
    messages: 1,
    dmarcPass: 0,
    bySourceIp: { '104.195.80.20': 1 },
  },
  'ikea.com!example.de!1538690400!1538776800.xml': {
    domain: 'example.de',
    day: '2018-10-04',
    records: 1,
    messages: 1,
    dmarcPass: 0,
    bySourceIp: { '234.234.234.234': 1 },
  },
  'old_draft_from_wiki.xml': {
    domain: 'example.com',
    day: '2012-04-28',
    records: 1,
    messages: 2,
    dmarcPass: 2,
    bySourceIp: { '72.150.241.94': 2 },
  },
  'usssa.com!example.com!1538784000!1538870399.xml': {
    domain: 'example.com',
    day: '2018-10-06',
    records: 2,
    messages: 2,
    dmarcPass: 0,
    bySourceIp: { '12.20.127.40': 1, '199.230.200.36': 1 },
  },
  'veeam.com!example.com!1530133200!1530219600.xml': {
    domain: 'example.com',
    day: '2018-06-27',
    records: 1,
    messages: 1,
    dmarcPass: 0,
    bySourceIp: { '199.230.200.36': 1 },
  },
};
const REFUSED_FIXTURE = 'invalid_xml.xml';

const TLS_FIXTURES: Record<string, { domain: string; records: number; sessions: number }> = {
  'rfc8460.json': { domain: 'company-y.example', records: 3, sessions: 5326 + 303 },
  'smtp_tls.json': { domain: 'example.com', records: 2, sessions: 0 + 3 },
};

beforeAll(async () => {
  world = await startReportsWorld();
  const names = new Set([
    ...Object.values(DMARC_FIXTURES).map((f) => f.domain),
    ...Object.values(TLS_FIXTURES).map((f) => f.domain),
  ]);
  for (const fqdn of names) domainIds.set(fqdn, await createDomain(world.svc, world.token, fqdn));
});

afterAll(() => stopService(world.svc));

function storedMessagesBySource(reportId: number): Record<string, number> {
  const rows = world.svc.db
    .prepare<[number], { source_ip: string; n: number }>(
      'SELECT source_ip, SUM(count) AS n FROM dmarc_report_records WHERE report_id = ? GROUP BY source_ip',
    )
    .all(reportId);
  return Object.fromEntries(rows.map((r) => [r.source_ip, r.n]));
}

describe('DMARC aggregate fixtures', () => {
  it('covers every file of the fixture folder', () => {
    expect(listFixtures('dmarc-aggregate')).toEqual([...Object.keys(DMARC_FIXTURES), REFUSED_FIXTURE].sort());
  });

  it.each(Object.entries(DMARC_FIXTURES))('stores %s with the counts the file holds', async (name, f) => {
    const res = await upload(world.svc, 'dmarc', readFixture('dmarc-aggregate', name), {
      contentType: contentTypeOf(name),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      domain_id: domainIds.get(f.domain),
      records: f.records,
      messages: f.messages,
      duplicate: false,
    });
    expect(storedMessagesBySource(res.body.data.id)).toEqual(f.bySourceIp);
    // What the user sees: the messages on the report's day, and each source with its volume.
    const volume = await world.svc.call('GET', `/domains/${domainIds.get(f.domain)}/mail-volume`, {
      token: world.token,
      query: { start_date: f.day, end_date: f.day },
    });
    expect(volume.status).toBe(200);
    expect(volume.body.data.totals).toMatchObject({
      total: f.messages,
      dmarc_pass: f.dmarcPass,
      dmarc_fail: f.messages - f.dmarcPass,
    });
    const sources = await world.svc.call('GET', `/domains/${domainIds.get(f.domain)}/sending-services`, {
      token: world.token,
      query: { start_date: f.day, end_date: f.day },
    });
    const shown = Object.fromEntries(
      sources.body.data.services.map((s: { source_name: string; total_count: number }) => [
        s.source_name,
        s.total_count,
      ]),
    );
    expect(shown).toEqual(f.bySourceIp);
  });

  it(`refuses ${REFUSED_FIXTURE} with 422 naming the problem, and changes nothing`, async () => {
    const before = reportTableCounts(world.svc);
    const res = await upload(world.svc, 'dmarc', readFixture('dmarc-aggregate', REFUSED_FIXTURE));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toMatch(/cannot be read: .*XML is malformed.*line 5/);
    expect(res.body.error.details).toEqual([
      { field: 'body', message: expect.stringMatching(/^malformed: /) },
    ]);
    expect(reportTableCounts(world.svc)).toEqual(before);
  });
});

describe('TLS report fixtures', () => {
  it('covers every file of the fixture folder', () => {
    expect(listFixtures('tls-rpt')).toEqual(Object.keys(TLS_FIXTURES).sort());
  });

  it.each(Object.entries(TLS_FIXTURES))(
    'stores %s with its policies and failure details',
    async (name, f) => {
      const res = await upload(world.svc, 'tls', readFixture('tls-rpt', name));
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        domain_id: domainIds.get(f.domain),
        records: f.records,
        messages: f.sessions,
        duplicate: false,
      });
      const stored = world.svc.db
        .prepare<[number], { policies: number; details: number; sessions: number }>(
          `SELECT (SELECT count(*) FROM tls_report_policies WHERE tls_report_id = r.id) AS policies,
                (SELECT count(*) FROM tls_failure_details d JOIN tls_report_policies p ON p.id = d.policy_id
                  WHERE p.tls_report_id = r.id) AS details,
                r.total_successful_session_count + r.total_failure_session_count AS sessions
           FROM tls_reports r WHERE r.id = ?`,
        )
        .get(res.body.data.id);
      expect(stored).toEqual({ policies: 1, details: f.records, sessions: f.sessions });
    },
  );

  it('takes the gzip form (application/tlsrpt+gzip) and knows it is the same report', async () => {
    const before = reportTableCounts(world.svc);
    const res = await upload(world.svc, 'tls', gzipSync(readFixture('tls-rpt', 'rfc8460.json')), {
      contentType: 'application/tlsrpt+gzip',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      report_id: '5065427c-23d3-47ca-b6e0-946ea0e8c4be',
      duplicate: true,
    });
    expect(reportTableCounts(world.svc)).toEqual(before);
  });

  it('refuses JSON that is not a TLS report with 422 and changes nothing', async () => {
    const before = reportTableCounts(world.svc);
    const res = await upload(world.svc, 'tls', JSON.stringify({ 'organization-name': 'X' }));
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(
      /^The TLS report cannot be read: .*(date-range|report-id|policies)/,
    );
    expect(reportTableCounts(world.svc)).toEqual(before);
  });
});

describe('duplicates', () => {
  const xml = aggregateXml({
    domain: 'example.com',
    reportId: 'dup-1',
    begin: '2026-06-10T00:00:00Z',
    records: [{ ip: '192.0.2.10', count: 7, dkim: 'pass' }],
  });

  it('stores a report once: the same bytes again answer 200 duplicate with the first id, and nothing changes', async () => {
    const first = await upload(world.svc, 'dmarc', xml);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ records: 1, messages: 7, duplicate: false });
    const before = reportTableCounts(world.svc);
    const snapshots = world.svc.db.prepare('SELECT * FROM dashboard_snapshots ORDER BY 1, 2, 3').all();
    world.svc.clock.advance(60_000);
    const again = await upload(world.svc, 'dmarc', xml);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, duplicate: true });
    expect(reportTableCounts(world.svc)).toEqual(before);
    expect(world.svc.db.prepare('SELECT * FROM dashboard_snapshots ORDER BY 1, 2, 3').all()).toEqual(
      snapshots,
    );
  });

  it('recognises the same report gzipped, and counts its messages once in the mail volume', async () => {
    const res = await upload(world.svc, 'dmarc', gzipSync(xml), { contentType: 'application/gzip' });
    expect(res.status).toBe(200);
    expect(res.body.data.duplicate).toBe(true);
    const volume = await world.svc.call('GET', `/domains/${domainIds.get('example.com')}/mail-volume`, {
      token: world.token,
      query: { start_date: '2026-06-10', end_date: '2026-06-10' },
    });
    expect(volume.body.data.totals.total).toBe(7);
  });

  it('stores a report of another reporter with the same report id separately', async () => {
    const other = aggregateXml({
      domain: 'example.com',
      reportId: 'dup-1',
      orgName: 'other-receiver.example',
      begin: '2026-06-10T00:00:00Z',
      records: [{ ip: '192.0.2.11', count: 3 }],
    });
    const res = await upload(world.svc, 'dmarc', other);
    expect(res.status).toBe(201);
    expect(res.body.data.duplicate).toBe(false);
  });
});

describe('which domain a report is for', () => {
  it('refuses a report about a domain no team registered (422 naming it), and changes nothing', async () => {
    const before = reportTableCounts(world.svc);
    const res = await upload(
      world.svc,
      'dmarc',
      aggregateXml({
        domain: 'unknown-brand.example',
        reportId: 'u-1',
        begin: '2026-06-01T00:00:00Z',
        records: [{ ip: '192.0.2.1', count: 1 }],
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('unknown-brand.example');
    expect(res.body.error.details[0].field).toBe('body.policy_published.domain');
    expect(reportTableCounts(world.svc)).toEqual(before);
  });

  it('refuses a TLS report none of whose policy domains is registered', async () => {
    const res = await upload(
      world.svc,
      'tls',
      JSON.stringify({
        'organization-name': 'R',
        'date-range': { 'start-datetime': '2026-06-01T00:00:00Z', 'end-datetime': '2026-06-01T23:59:59Z' },
        'report-id': 'tls-u-1',
        policies: [
          {
            policy: { 'policy-type': 'no-policy-found', 'policy-domain': 'nobody.example' },
            summary: { 'total-successful-session-count': 1, 'total-failure-session-count': 0 },
          },
        ],
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('nobody.example');
  });

  it('asks which team when several registered the domain, and stores the report where domain_id says', async () => {
    const other = await addAccount(world.svc, 'Shared Name Co');
    const { token } = await world.svc.createToken(['domains:read', 'domains:write'], {
      userId: other.ownerUserId,
    });
    const theirs = await createDomain(world.svc, token, 'shared-brand.example');
    const ours = await createDomain(world.svc, world.token, 'shared-brand.example');
    const xml = aggregateXml({
      domain: 'shared-brand.example',
      reportId: 's-1',
      begin: '2026-06-02T00:00:00Z',
      records: [{ ip: '192.0.2.2', count: 4 }],
    });
    const ambiguous = await upload(world.svc, 'dmarc', xml);
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.error.details[0].field).toBe('query.domain_id');
    const stored = await upload(world.svc, 'dmarc', xml, { domainId: ours });
    expect(stored.status).toBe(201);
    expect(stored.body.data.domain_id).toBe(ours);
    const query = { start_date: '2026-06-02', end_date: '2026-06-02' };
    const mine = await world.svc.call('GET', `/domains/${ours}/mail-volume`, { token: world.token, query });
    expect(mine.body.data.totals.total).toBe(4);
    const theirsVolume = await world.svc.call('GET', `/domains/${theirs}/mail-volume`, { token, query });
    expect(theirsVolume.body.data.totals.total).toBe(0);
  });

  it('refuses a domain_id whose domain the report is not about, and an unknown domain_id', async () => {
    const xml = aggregateXml({
      domain: 'example.com',
      reportId: 'wrong-target',
      begin: '2026-06-03T00:00:00Z',
      records: [{ ip: '192.0.2.3', count: 1 }],
    });
    const wrong = await upload(world.svc, 'dmarc', xml, { domainId: domainIds.get('example.de') });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.message).toMatch(/about example\.com, not about domain \d+ \(example\.de\)/);
    const unknown = await upload(world.svc, 'dmarc', xml, { domainId: 999_999 });
    expect(unknown.status).toBe(404);
  });
});

describe('upload control', () => {
  const xml = aggregateXml({
    domain: 'example.com',
    reportId: 'ctl-1',
    begin: '2026-06-04T00:00:00Z',
    records: [{ ip: '192.0.2.4', count: 1 }],
  });

  it('requires the sandbox key', async () => {
    expect((await upload(world.svc, 'dmarc', xml, { key: null })).status).toBe(401);
    expect((await upload(world.svc, 'dmarc', xml, { key: 'wrong' })).status).toBe(401);
  });

  it('answers 415 for a content type that is not a report', async () => {
    const res = await upload(world.svc, 'dmarc', xml, { contentType: 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.error.message).toContain('application/xml');
  });

  it('takes application/octet-stream and text/xml, and a zip (application/zip)', async () => {
    expect((await upload(world.svc, 'dmarc', xml, { contentType: 'application/octet-stream' })).status).toBe(
      201,
    );
    const second = xml.replace('ctl-1', 'ctl-2');
    expect((await upload(world.svc, 'dmarc', second, { contentType: 'text/xml' })).status).toBe(201);
  });

  it('refuses a truncated gzip (422) and an empty body (422)', async () => {
    const gz = gzipSync(xml.replace('ctl-1', 'ctl-3'));
    const truncated = await upload(world.svc, 'dmarc', gz.subarray(0, gz.length - 12), {
      contentType: 'application/gzip',
    });
    expect(truncated.status).toBe(422);
    expect(truncated.body.error.details[0].message).toMatch(/^corrupt_container: /);
    expect((await upload(world.svc, 'dmarc', '')).status).toBe(422);
  });

  it('takes a report larger than the default 1 MiB request body', async () => {
    const records = Array.from({ length: 4000 }, () => ({ ip: '192.0.2.5', count: 1 }));
    const big = aggregateXml({
      domain: 'example.com',
      reportId: 'big-1',
      begin: '2026-06-05T00:00:00Z',
      records,
    });
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const res = await upload(world.svc, 'dmarc', big);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ records: 4000, messages: 4000 });
  });

  it('refuses with 413 a report that unpacks beyond the 64 MiB limit, and changes nothing', async () => {
    const before = reportTableCounts(world.svc);
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20));
    const res = await upload(world.svc, 'dmarc', bomb, { contentType: 'application/gzip' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect(reportTableCounts(world.svc)).toEqual(before);
  });

  it('refuses a bad domain_id query value', async () => {
    const res = await fetch(`${world.svc.origin}/_sandbox/reports/dmarc?domain_id=abc`, {
      method: 'POST',
      headers: { 'x-sandbox-key': 'test-sandbox-key', 'content-type': 'application/xml' },
      body: xml,
    });
    expect(res.status).toBe(422);
  });
});

describe('source names', () => {
  let domainId: number;
  const day = '2026-05-20';

  async function ptr(ip: string, name: string | null, forwardConfirmed = true): Promise<void> {
    const res = await world.svc.sandbox('PUT', `/ptr/${ip}`, { name, forward_confirmed: forwardConfirmed });
    expect(res.status).toBe(200);
  }

  async function namesOf(reportId: string, records: { ip: string; count: number }[]): Promise<string[]> {
    await ingest(
      world.svc,
      'dmarc',
      aggregateXml({ domain: 'naming.example', reportId, begin: `${day}T00:00:00Z`, records }),
    );
    const res = await world.svc.call('GET', `/domains/${domainId}/sending-services`, {
      token: world.token,
      query: { start_date: day, end_date: day, limit: 100 },
    });
    return res.body.data.services.map((s: { source_name: string }) => s.source_name);
  }

  beforeAll(async () => {
    domainId = await createDomain(world.svc, world.token, 'naming.example');
  });

  it('names a source by the organisation of its forward-confirmed reverse DNS name', async () => {
    await ptr('198.51.100.7', 'mail-xyz.google.com');
    await ptr('2001:db8::25', 'relay7.bulk-mailer.co.uk');
    const names = await namesOf('n-1', [
      { ip: '198.51.100.7', count: 50 },
      { ip: '2001:db8::25', count: 40 },
    ]);
    // google.com is a well-known organisation; bulk-mailer.co.uk is shown as its base domain (public suffix list).
    expect(names).toEqual(['Google', 'bulk-mailer.co.uk']);
  });

  it('does not trust a reverse DNS name that does not resolve back to the address', async () => {
    await ptr('198.51.100.8', 'mail.microsoft.com', false);
    expect(await namesOf('n-2', [{ ip: '198.51.100.8', count: 30 }])).toContain('198.51.100.8');
  });

  it('falls back to the well-known sender networks, then to the address itself', async () => {
    const names = await namesOf('n-3', [
      { ip: '209.85.220.41', count: 20 }, // Google's 209.85.128.0/17
      { ip: '2a01:111:f400:fe5a::75', count: 15 }, // Microsoft's 2a01:111:f400::/48
      { ip: '167.89.1.2', count: 10 }, // SendGrid's 167.89.0.0/17
      { ip: '203.0.113.99', count: 5 },
    ]);
    expect(names).toEqual(expect.arrayContaining(['Microsoft', 'SendGrid', '203.0.113.99']));
    expect(names).not.toContain('209.85.220.41');
    expect(names).not.toContain('2a01:111:f400:fe5a::75');
  });

  it('groups the addresses of one organisation under one name', async () => {
    const res = await world.svc.call('GET', `/domains/${domainId}/sending-services`, {
      token: world.token,
      query: { start_date: day, end_date: day },
    });
    const google = res.body.data.services.find((s: { source_name: string }) => s.source_name === 'Google');
    // 198.51.100.7 by reverse DNS (50) and 209.85.220.41 by network (20).
    expect(google.total_count).toBe(70);
  });

  it('keeps the name given at ingestion when reverse DNS changes later', async () => {
    await ptr('198.51.100.7', null);
    const res = await world.svc.call('GET', `/domains/${domainId}/sending-services`, {
      token: world.token,
      query: { start_date: day, end_date: day },
    });
    expect(res.body.data.services[0]).toMatchObject({ source_name: 'Google', total_count: 70 });
  });

  it('refuses a PTR control for something that is not an address', async () => {
    const res = await world.svc.sandbox('PUT', '/ptr/not-an-ip', { name: 'x.example' });
    expect(res.status).toBe(422);
  });
});
