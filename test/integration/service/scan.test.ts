// Guard scans over real HTTP: what a scan concludes from the sandbox zone (pass rules, result labels, mail
// provider), the connect/disconnect events and record snapshots it writes, and the POST /_sandbox/scan control.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsError, type DnsResolve } from '../../../shared/email-auth/dns.ts';
import { createSandboxZoneResolver, writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { startService, stopService, type ServiceHarness } from '../../support/serviceHarness.ts';
import { addDomain, addTeam, GOOD, publish, publishAll, scan } from './scanSupport.ts';

let svc: ServiceHarness;
let token: string;
// Names whose lookups fail with SERVFAIL (a DNS outage), while the rest of the sandbox zone answers.
const failing = new Set<string>();

beforeAll(async () => {
  const resolver = ((name: string, rrtype: 'TXT') => {
    if (failing.has(name.toLowerCase())) return Promise.reject(new DnsError('ESERVFAIL', name, rrtype));
    return createSandboxZoneResolver(svc.db)(name, rrtype);
  }) as DnsResolve;
  svc = await startService({ resolver });
  token = (await svc.createToken(['domains:read'])).token;
});

afterAll(() => stopService(svc));

async function get(path: string, query?: Record<string, string | number>) {
  const res = await svc.call('GET', path, { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('a scan of a domain publishing every record', () => {
  it('passes all five protocols, labels it Protected and records one connected event per record', async () => {
    const id = addDomain(svc, 'full.example');
    await publishAll(svc, 'full.example');
    const report = await scan(svc, id, '2026-06-15T12:00:00.000Z');
    expect(report.protocols).toEqual({ dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: true });
    expect(report.protocols_passing).toBe(5);
    expect(report.result).toBe('Protected');
    expect(report.mail_provider).toBe('Google Workspace');

    const changes = (await get(`/domains/${id}/dns/changes`)).data;
    expect(changes).toHaveLength(5);
    expect(changes.every((e: { action: string }) => e.action === 'connected')).toBe(true);
    const spf = changes.find((e: { record_type: string }) => e.record_type === 'spf');
    expect(spf).toMatchObject({
      record_value: GOOD.spf,
      status_before: 'disconnected',
      status_after: 'connected',
      occurred_at: '2026-06-15T12:00:00.000Z',
    });
  });
});

describe('removing and restoring SPF', () => {
  let id: number;
  beforeAll(async () => {
    id = addDomain(svc, 'spf-cycle.example');
    await publishAll(svc, 'spf-cycle.example');
    await scan(svc, id, '2026-06-10T08:00:00.000Z');
  });

  it('records exactly one disconnected spf event, drops spf from health and costs 2 points', async () => {
    const before = (await get(`/domains/${id}/security-score`)).data.score;
    await publish(svc, 'spf-cycle.example', 'spf', null);
    const report = await scan(svc, id, '2026-06-11T08:00:00.000Z');
    expect(report.events).toEqual([
      expect.objectContaining({ record_type: 'spf', action: 'disconnected', record_value: null }),
    ]);

    const health = (await get(`/domains/${id}/health`)).data;
    expect(health.source).toBe('guard_history');
    expect(health.protocols.spf).toBe(false);
    expect(health.protocols_passing).toBe(4);
    expect(health.scanned_at).toBe('2026-06-11T08:00:00.000Z');
    const after = (await get(`/domains/${id}/security-score`)).data.score;
    expect(before).toBe(10);
    expect(after).toBe(8);

    const disconnected = (await get(`/domains/${id}/dns/changes`, { action: 'disconnected' })).data;
    expect(disconnected).toEqual([
      {
        id: expect.any(Number),
        record_type: 'spf',
        action: 'disconnected',
        record_value: null,
        status_before: 'connected',
        status_after: 'disconnected',
        occurred_at: '2026-06-11T08:00:00.000Z',
      },
    ]);
  });

  it('records nothing when a second scan sees no change', async () => {
    const total = (await svc.call('GET', `/domains/${id}/dns/changes`, { token })).body.pagination.total;
    const report = await scan(svc, id, '2026-06-12T08:00:00.000Z');
    expect(report.events).toEqual([]);
    expect(report.record_snapshots).toBe(0);
    const again = await svc.call('GET', `/domains/${id}/dns/changes`, { token });
    expect(again.body.pagination.total).toBe(total);
  });

  it('records a connected event with the record when SPF is published again', async () => {
    await publish(svc, 'spf-cycle.example', 'spf', 'v=spf1 ip4:198.51.100.7 -all');
    const report = await scan(svc, id, '2026-06-13T08:00:00.000Z');
    expect(report.events).toEqual([
      expect.objectContaining({
        record_type: 'spf',
        action: 'connected',
        record_value: 'v=spf1 ip4:198.51.100.7 -all',
      }),
    ]);
    expect((await get(`/domains/${id}/health`)).data.protocols.spf).toBe(true);
    expect((await get(`/domains/${id}/security-score`)).data.score).toBe(10);
  });

  it('keeps the SPF record history: published, removed (null), published again', async () => {
    const history = (await get(`/domains/${id}/dns/history`, { record_type: 'spf' })).data;
    expect(history.map((h: { record_value: string | null }) => h.record_value)).toEqual([
      GOOD.spf,
      null,
      'v=spf1 ip4:198.51.100.7 -all',
    ]);
  });
});

describe('what passes', () => {
  it('counts a present but invalid record as connected and not passing', async () => {
    const id = addDomain(svc, 'invalid.example');
    await publishAll(svc, 'invalid.example', { dmarc: 'v=DMARC1; p=maybe' });
    const report = await scan(svc, id, '2026-06-15T12:00:00.000Z');
    expect(report.protocols.dmarc).toBe(false);
    expect(report.protocols_passing).toBe(4);
    expect(report.events.map((e) => e.record_type)).toContain('dmarc');
    const current = (await get(`/domains/${id}/dns/current`)).data.protocols.dmarc;
    expect(current).toMatchObject({
      current_status: 'connected',
      verified: false,
      status: 'invalid',
      record_value: 'v=DMARC1; p=maybe',
    });
  });

  it('does not disconnect a record that becomes invalid, and connects nothing when it becomes valid', async () => {
    const id = addDomain(svc, 'flip.example');
    await publishAll(svc, 'flip.example');
    await scan(svc, id, '2026-06-15T12:00:00.000Z');
    await publish(svc, 'flip.example', 'tls_rpt', 'v=TLSRPTv1; rua=ftp://reports.example');
    const broken = await scan(svc, id, '2026-06-15T13:00:00.000Z');
    expect(broken.events).toEqual([]);
    expect(broken.protocols.tls_rpt).toBe(false);
    await publish(svc, 'flip.example', 'tls_rpt', GOOD.tls_rpt);
    const fixed = await scan(svc, id, '2026-06-15T14:00:00.000Z');
    expect(fixed.events).toEqual([]);
    expect(fixed.protocols.tls_rpt).toBe(true);
  });

  it('fails SPF whose include tree needs more than 10 DNS lookups, and passes one within the limit', async () => {
    for (let i = 1; i <= 10; i++)
      await publish(svc, `l${i}.spf-chain.example`, 'spf', `v=spf1 ip4:192.0.2.${i} -all`);
    const ten = Array.from({ length: 10 }, (_, i) => `include:l${i + 1}.spf-chain.example`).join(' ');
    await publish(svc, 'big.spf-chain.example', 'spf', `v=spf1 ${ten} -all`);

    const over = addDomain(svc, 'too-many-lookups.example');
    await publishAll(svc, 'too-many-lookups.example', { spf: 'v=spf1 include:big.spf-chain.example -all' });
    expect((await scan(svc, over, '2026-06-15T12:00:00.000Z')).protocols.spf).toBe(false);
    const overSpf = (await get(`/domains/${over}/dns/current`)).data.protocols.spf;
    expect(overSpf).toMatchObject({ current_status: 'connected', status: 'invalid', verified: false });
    expect(overSpf.lookup_count).toBeGreaterThan(10);

    const within = addDomain(svc, 'few-lookups.example');
    await publishAll(svc, 'few-lookups.example', {
      spf: 'v=spf1 include:l1.spf-chain.example include:l2.spf-chain.example -all',
    });
    expect((await scan(svc, within, '2026-06-15T12:00:00.000Z')).protocols.spf).toBe(true);
    const withinSpf = (await get(`/domains/${within}/dns/current`)).data.protocols.spf;
    expect(withinSpf).toMatchObject({ status: 'valid', verified: true, lookup_count: 2 });
  });

  it('fails DMARC when two records are published, while counting it connected', async () => {
    const id = addDomain(svc, 'two-dmarc.example');
    await publishAll(svc, 'two-dmarc.example');
    writeZoneRecords(svc.db, {
      zone: 'two-dmarc.example',
      name: '_dmarc.two-dmarc.example',
      rrtype: 'TXT',
      values: ['v=DMARC1; p=reject', 'v=DMARC1; p=none'],
      now: svc.clock.now(),
    });
    const report = await scan(svc, id, '2026-06-15T12:00:00.000Z');
    expect(report.protocols.dmarc).toBe(false);
    const current = (await get(`/domains/${id}/dns/current`)).data.protocols.dmarc;
    expect(current).toMatchObject({ current_status: 'connected', status: 'multiple', verified: false });
  });

  it('fails BIMI for the declination record and for a record without a logo URL', async () => {
    for (const [fqdn, bimi] of [
      ['bimi-declined.example', 'v=BIMI1; l=; a=;'],
      ['bimi-no-l.example', 'v=BIMI1; a=https://brand.example/vmc.pem'],
    ] as const) {
      const id = addDomain(svc, fqdn);
      await publishAll(svc, fqdn, { bimi });
      const report = await scan(svc, id, '2026-06-15T12:00:00.000Z');
      expect(report.protocols.bimi, fqdn).toBe(false);
      expect(report.protocols_passing, fqdn).toBe(4);
    }
  });

  it('fails MTA-STS without an id and TLS-RPT without rua', async () => {
    const id = addDomain(svc, 'sts-no-id.example');
    await publishAll(svc, 'sts-no-id.example', { mta_sts: 'v=STSv1;', tls_rpt: 'v=TLSRPTv1;' });
    const report = await scan(svc, id, '2026-06-15T12:00:00.000Z');
    expect(report.protocols).toMatchObject({ mta_sts: false, tls_rpt: false, dmarc: true, spf: true });
  });
});

describe('result labels', () => {
  const cases: [string, Partial<Record<keyof typeof GOOD, string | null>>, string][] = [
    ['label-5of5-none.example', { dmarc: 'v=DMARC1; p=none' }, 'Protected'],
    [
      'label-enforced.example',
      { dmarc: 'v=DMARC1; p=quarantine', mta_sts: null, tls_rpt: null, bimi: null },
      'Protected',
    ],
    [
      'label-monitoring.example',
      { dmarc: 'v=DMARC1; p=none', mta_sts: null, tls_rpt: null, bimi: null },
      'Partially protected',
    ],
    ['label-no-spf.example', { spf: null, mta_sts: null }, 'Partially protected'],
    ['label-spf-only.example', { dmarc: null, mta_sts: null, tls_rpt: null, bimi: null }, 'At risk'],
    [
      'label-nothing.example',
      { dmarc: null, spf: null, mta_sts: null, tls_rpt: null, bimi: null },
      'Unprotected',
    ],
  ];
  it.each(cases)('%s is %s', async (fqdn, overrides, label) => {
    const id = addDomain(svc, fqdn);
    await publishAll(svc, fqdn, overrides);
    expect((await scan(svc, id, '2026-06-15T12:00:00.000Z')).result).toBe(label);
    expect((await get(`/domains/${id}/health`)).data.result).toBe(label);
  });
});

describe('mail provider', () => {
  const cases: [string, string | null, string][] = [
    ['mx-google.example', '1 ASPMX.L.GOOGLE.COM.', 'Google Workspace'],
    ['mx-microsoft.example', '0 mx-microsoft-example.mail.protection.outlook.com', 'Microsoft 365'],
    ['mx-proofpoint.example', '10 mx0a-001.pphosted.com, 5 mx0b-001.pphosted.com', 'Proofpoint'],
    // The preferred exchange (lowest priority value) decides, not the first listed.
    ['mx-preferred.example', '20 aspmx.l.google.com, 10 eu-smtp-inbound-1.mimecast.com', 'Mimecast'],
    ['mx-own.example', '10 mail.mx-own.example', 'Other'],
    ['mx-none.example', null, 'None'],
  ];
  it.each(cases)('%s → %s', async (fqdn, mx, provider) => {
    const id = addDomain(svc, fqdn);
    await publishAll(svc, fqdn, { mx });
    expect((await scan(svc, id, '2026-06-15T12:00:00.000Z')).mail_provider).toBe(provider);
    expect((await get(`/domains/${id}/health`)).data.mail_provider).toBe(provider);
  });
});

describe('a DNS outage', () => {
  it('changes nothing: no disconnection, the previous pass flag and value are kept', async () => {
    const id = addDomain(svc, 'outage.example');
    await publishAll(svc, 'outage.example');
    await scan(svc, id, '2026-06-15T10:00:00.000Z');
    failing.add('_dmarc.outage.example');
    failing.add('outage.example');
    try {
      const report = await scan(svc, id, '2026-06-15T11:00:00.000Z');
      expect(report.events).toEqual([]);
      expect(report.record_snapshots).toBe(0);
      expect(report.protocols).toMatchObject({ dmarc: true, spf: true });
      expect(report.mail_provider).toBe('Google Workspace');
      const current = (await get(`/domains/${id}/dns/current`)).data.protocols;
      expect(current.dmarc).toMatchObject({
        current_status: 'connected',
        status: 'dns_error',
        record_value: GOOD.dmarc,
      });
      expect(current.spf).toMatchObject({
        current_status: 'connected',
        status: 'dns_error',
        record_value: GOOD.spf,
      });
    } finally {
      failing.clear();
    }
    const recovered = await scan(svc, id, '2026-06-15T12:00:00.000Z');
    expect(recovered.events).toEqual([]);
    expect((await get(`/domains/${id}/dns/current`)).data.protocols.dmarc.status).toBe('valid');
  });
});

describe('record snapshots', () => {
  it('stores a DMARC snapshot when the value changes, without a connection event', async () => {
    const id = addDomain(svc, 'dmarc-change.example');
    await publishAll(svc, 'dmarc-change.example', { dmarc: 'v=DMARC1; p=none' });
    await scan(svc, id, '2026-06-15T09:00:00.000Z');
    await publish(svc, 'dmarc-change.example', 'dmarc', 'v=DMARC1; p=reject');
    const report = await scan(svc, id, '2026-06-15T10:00:00.000Z');
    expect(report.events).toEqual([]);
    expect(report.record_snapshots).toBe(1);
    const snaps = (await get(`/domains/${id}/dns/snapshots`)).data;
    expect(snaps.dmarc.map((s: { record_value: string }) => s.record_value)).toEqual([
      'v=DMARC1; p=reject',
      'v=DMARC1; p=none',
    ]);
    expect(snaps.spf).toHaveLength(1);
  });

  it('stores no snapshot for a record that was never published', async () => {
    const id = addDomain(svc, 'never-dmarc.example');
    await publishAll(svc, 'never-dmarc.example', { dmarc: null });
    const report = await scan(svc, id, '2026-06-15T12:00:00.000Z');
    expect(report.record_snapshots).toBe(1);
    const snaps = (await get(`/domains/${id}/dns/snapshots`)).data;
    expect(snaps.dmarc).toEqual([]);
    expect(snaps.spf).toHaveLength(1);
  });
});

describe('POST /_sandbox/scan', () => {
  it('scans every domain of every team when domain_id is omitted', async () => {
    const other = await addTeam(svc, 'Scan Other Team');
    const otherId = addDomain(svc, 'other-team-scan.example', other);
    const domains = (svc.db.prepare('SELECT count(*) AS n FROM domains').get() as { n: number }).n;
    svc.clock.set('2026-06-15T12:30:00.000Z');
    const res = await svc.sandbox('POST', '/scan', {});
    expect(res.status).toBe(200);
    expect(res.body.data.scans).toHaveLength(domains);
    expect(res.body.data.scans.map((s: { domain_id: number }) => s.domain_id)).toContain(otherId);
    expect(
      res.body.data.scans.every((s: { scanned_at: string }) => s.scanned_at === '2026-06-15T12:30:00.000Z'),
    ).toBe(true);
  });

  it('answers 404 for an unknown domain, 422 for a bad domain_id and 401 without the sandbox key', async () => {
    const unknown = await svc.sandbox('POST', '/scan', { domain_id: 999_999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const bad = await svc.sandbox('POST', '/scan', { domain_id: 'one' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_error');
    const keyless = await svc.sandbox('POST', '/scan', {}, { key: null });
    expect(keyless.status).toBe(401);
  });
});
