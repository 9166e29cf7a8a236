// Hosted DMARC over real HTTP: provisioning, tag edits validated tag by tag and rebuilt in canonical order,
// publication in the service's zone (seen through a delegating CNAME), removal, the enforcement-only
// policy endpoint, the change history and the enforcement recommendation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupPublishedRecord } from '../../../shared/email-auth/publishedRecord.ts';
import { createSandboxZoneResolver } from '../../../service/dns/sandboxZone.ts';
import { stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { startOwnerWorld, type OwnerWorld } from '../../../test/support/ownerWorld.ts';

let svc: ServiceHarness;
let owner: string;
let member: string;
let reader: string;
let otherTeamDomain: number;
let addDomain: OwnerWorld['addDomain'];

beforeAll(async () => {
  ({ svc, owner, member, reader, otherTeamDomain, addDomain } = await startOwnerWorld('other-dmarc.example'));
});

afterAll(() => stopService(svc));

const SERVICE_RUA = 'mailto:rua@reports.authwatch.example';

describe('provisioning and reading', () => {
  let id: number;
  beforeAll(() => {
    id = addDomain(svc.seed!.teamId, 'dmarc-one.example');
  });

  it('answers 404 before hosted DMARC is provisioned', async () => {
    const res = await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: owner });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('provisions p=none reporting to the service and serves it from the hosted zone', async () => {
    const res = await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      name: '_dmarc.dmarc-one.example',
      value: `v=DMARC1; p=none; rua=${SERVICE_RUA}`,
      enabled: true,
      policy: 'none',
      hosted_record_name: 'dmarc-one.example.dmarc.hosted.authwatch.example',
    });
    expect(res.body.data.tags).toMatchObject({ p: 'none', sp: null, pct: null, rua: SERVICE_RUA });
    expect(res.body.data.dns_targets).toEqual([
      {
        type: 'CNAME',
        name: '_dmarc.dmarc-one.example',
        value: 'dmarc-one.example.dmarc.hosted.authwatch.example',
        ttl: 3600,
      },
    ]);
    const zone = createSandboxZoneResolver(svc.db);
    expect(await zone('dmarc-one.example.dmarc.hosted.authwatch.example', 'TXT')).toEqual([
      [`v=DMARC1; p=none; rua=${SERVICE_RUA}`],
    ]);
    const got = await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: reader });
    expect(got.status).toBe(200);
    expect(got.body.data.value).toBe(res.body.data.value);
  });

  it('refuses to provision twice (422) and keeps the record', async () => {
    const res = await svc.call('POST', `/domains/${id}/hosted-dmarc`, {
      token: owner,
      body: { p: 'reject' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('path.domain_id');
    const got = await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: owner });
    expect(got.body.data.policy).toBe('none');
  });

  it('provisions with initial tags from the body, keeping the service rua first', async () => {
    const other = addDomain(svc.seed!.teamId, 'dmarc-two.example');
    const res = await svc.call('POST', `/domains/${other}/hosted-dmarc`, {
      token: owner,
      body: { p: 'quarantine', pct: 50, rua: 'mailto:dmarc@dmarc-two.example' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.value).toBe(
      `v=DMARC1; p=quarantine; pct=50; rua=${SERVICE_RUA},mailto:dmarc@dmarc-two.example`,
    );
  });

  it('answers 404 for another team’s domain and 403 for a member who is not the owner', async () => {
    expect((await svc.call('GET', `/domains/${otherTeamDomain}/hosted-dmarc`, { token: owner })).status).toBe(
      404,
    );
    const post = await svc.call('POST', `/domains/${otherTeamDomain}/hosted-dmarc`, { token: owner });
    expect(post.status).toBe(404);
    for (const [method, path, body] of [
      ['POST', `/domains/${id}/hosted-dmarc`, undefined],
      ['PATCH', `/domains/${id}/hosted-dmarc`, { p: 'reject' }],
      ['DELETE', `/domains/${id}/hosted-dmarc`, undefined],
      ['PATCH', `/domains/${id}/dmarc-policy`, { p: 'reject' }],
    ] as const) {
      const res = await svc.call(method, path, { token: member, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('team_owner_required');
    }
  });

  it('needs domains:write to provision', async () => {
    const res = await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: reader });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
  });
});

describe('editing tags', () => {
  let id: number;
  beforeAll(async () => {
    id = addDomain(svc.seed!.teamId, 'dmarc-edit.example');
    expect((await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner })).status).toBe(201);
  });

  it('rebuilds the record from all tags in canonical order', async () => {
    const res = await svc.call('PATCH', `/domains/${id}/hosted-dmarc`, {
      token: owner,
      body: {
        ri: 3600,
        fo: '1:d',
        ruf: 'mailto:forensic@dmarc-edit.example',
        aspf: 's',
        adkim: 's',
        pct: 100,
        sp: 'reject',
        p: 'quarantine',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.value).toBe(
      `v=DMARC1; p=quarantine; sp=reject; pct=100; adkim=s; aspf=s; rua=${SERVICE_RUA}; ` +
        'ruf=mailto:forensic@dmarc-edit.example; fo=1:d; ri=3600',
    );
    expect(res.body.data.tags).toEqual({
      v: 'DMARC1',
      p: 'quarantine',
      sp: 'reject',
      pct: 100,
      adkim: 's',
      aspf: 's',
      rua: SERVICE_RUA,
      ruf: 'mailto:forensic@dmarc-edit.example',
      fo: '1:d',
      ri: 3600,
    });
    expect(res.body.data.policy).toBe('quarantine');
  });

  it('keeps tags a PATCH does not name', async () => {
    const res = await svc.call('PATCH', `/domains/${id}/hosted-dmarc`, { token: owner, body: { pct: 25 } });
    expect(res.status).toBe(200);
    expect(res.body.data.tags).toMatchObject({ p: 'quarantine', sp: 'reject', pct: 25, fo: '1:d' });
  });

  it.each([
    [{ p: 'block' }, 'body.p'],
    [{ sp: 'maybe' }, 'body.sp'],
    [{ pct: 101 }, 'body.pct'],
    [{ pct: -1 }, 'body.pct'],
    [{ adkim: 'x' }, 'body.adkim'],
    [{ aspf: 'relaxed' }, 'body.aspf'],
    [{ rua: 'https://example.com/reports' }, 'body.rua'],
    [{ rua: 'mailto:not-an-address' }, 'body.rua'],
    [{ ruf: 'mailto:someone@' }, 'body.ruf'],
    [{ fo: '2' }, 'body.fo'],
    [{ ri: 60 }, 'body.ri'],
    [{ np: 'reject' }, 'body.np'],
    [{}, 'body'],
  ])('422 for %j with a detail on %s, record unchanged', async (body, field) => {
    const before = (await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: owner })).body.data.value;
    const res = await svc.call('PATCH', `/domains/${id}/hosted-dmarc`, { token: owner, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    const after = (await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: owner })).body.data.value;
    expect(after).toBe(before);
  });

  it('answers 404 when PATCHing a domain without hosted DMARC', async () => {
    const bare = addDomain(svc.seed!.teamId, 'dmarc-bare.example');
    const res = await svc.call('PATCH', `/domains/${bare}/hosted-dmarc`, {
      token: owner,
      body: { p: 'reject' },
    });
    expect(res.status).toBe(404);
  });
});

describe('publication through a delegating CNAME', () => {
  it('a lookup of _dmarc.<fqdn> sees every change, and nothing once the record is deleted', async () => {
    const id = addDomain(svc.seed!.teamId, 'dmarc-live.example');
    const created = await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner });
    // The customer delegates once, as told by dns_targets.
    const target = created.body.data.dns_targets[0];
    const put = await svc.sandbox('PUT', '/delegations/dmarc-live.example/dmarc', { delegated: true });
    expect(put.status).toBe(200);
    expect(put.body.data.records).toEqual([target]);

    const zone = createSandboxZoneResolver(svc.db);
    let seen = await lookupPublishedRecord('dmarc', 'dmarc-live.example', zone);
    expect(seen.record).toBe(`v=DMARC1; p=none; rua=${SERVICE_RUA}`);

    await svc.call('PATCH', `/domains/${id}/hosted-dmarc`, { token: owner, body: { p: 'reject' } });
    seen = await lookupPublishedRecord('dmarc', 'dmarc-live.example', zone);
    expect(seen.record).toBe(`v=DMARC1; p=reject; rua=${SERVICE_RUA}`);

    const del = await svc.call('DELETE', `/domains/${id}/hosted-dmarc`, { token: owner });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deleted: true, id });
    expect((await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: owner })).status).toBe(404);
    seen = await lookupPublishedRecord('dmarc', 'dmarc-live.example', zone);
    expect(seen.status).toBe('missing');
    expect((await svc.call('DELETE', `/domains/${id}/hosted-dmarc`, { token: owner })).status).toBe(404);
  });
});

describe('dmarc-policy', () => {
  it('reads the record published in DNS when nothing is hosted, and 404 when there is none', async () => {
    const id = addDomain(svc.seed!.teamId, 'dmarc-dns.example');
    expect((await svc.call('GET', `/domains/${id}/dmarc-policy`, { token: reader })).status).toBe(404);
    await svc.sandbox('PUT', '/dns/dmarc-dns.example/dmarc', {
      value: 'v=DMARC1; p=quarantine; pct=20; rua=mailto:d@dmarc-dns.example',
    });
    const res = await svc.call('GET', `/domains/${id}/dmarc-policy`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      fqdn: 'dmarc-dns.example',
      policy: 'quarantine',
      source: 'dns',
      record_value: 'v=DMARC1; p=quarantine; pct=20; rua=mailto:d@dmarc-dns.example',
    });
    expect(res.body.data.tags).toMatchObject({ p: 'quarantine', pct: 20, sp: null });
    // Only the hosted record can be changed.
    const patch = await svc.call('PATCH', `/domains/${id}/dmarc-policy`, {
      token: owner,
      body: { p: 'reject' },
    });
    expect(patch.status).toBe(404);
  });

  it('changes only the enforcement of the hosted record, from policy or p', async () => {
    const id = addDomain(svc.seed!.teamId, 'dmarc-policy.example');
    await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner, body: { pct: 50, adkim: 's' } });
    let res = await svc.call('PATCH', `/domains/${id}/dmarc-policy`, {
      token: owner,
      body: { policy: 'quarantine' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ policy: 'quarantine', source: 'hosted' });
    expect(res.body.data.record_value).toBe(`v=DMARC1; p=quarantine; pct=50; adkim=s; rua=${SERVICE_RUA}`);
    res = await svc.call('PATCH', `/domains/${id}/dmarc-policy`, { token: owner, body: { p: 'reject' } });
    expect(res.body.data.tags).toMatchObject({ p: 'reject', pct: 50, adkim: 's' });
    const got = await svc.call('GET', `/domains/${id}/dmarc-policy`, { token: reader });
    expect(got.body.data.policy).toBe('reject');
    expect((await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: reader })).body.data.policy).toBe(
      'reject',
    );
  });

  it.each([
    [{ policy: 'reject', p: 'reject' }],
    [{ policy: 'block' }],
    [{ p: 'None ' }],
    [{ pct: 100 }],
    [{}],
  ])('422 for %j', async (body) => {
    const id = addDomain(svc.seed!.teamId, `dmarc-bad-${Math.random().toString(36).slice(2, 8)}.example`);
    await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner });
    const res = await svc.call('PATCH', `/domains/${id}/dmarc-policy`, { token: owner, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
  });
});

describe('history', () => {
  it('lists every change as activity and snapshot, newest first, paginated', async () => {
    const id = addDomain(svc.seed!.teamId, 'dmarc-history.example');
    await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner });
    svc.clock.advance(60_000);
    await svc.call('PATCH', `/domains/${id}/dmarc-policy`, { token: owner, body: { p: 'quarantine' } });
    svc.clock.advance(60_000);
    await svc.call('PATCH', `/domains/${id}/hosted-dmarc`, { token: owner, body: { pct: 30 } });
    svc.clock.advance(60_000);
    await svc.call('DELETE', `/domains/${id}/hosted-dmarc`, { token: owner });

    const res = await svc.call('GET', `/domains/${id}/dmarc/history`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 8, has_more: false });
    const rows = res.body.data as {
      kind: string;
      action: string;
      record_value: string | null;
      actor: string | null;
      occurred_at: string;
    }[];
    expect(rows.map((r) => `${r.kind}:${r.action}`)).toEqual([
      'snapshot:record.removed',
      'activity:record.removed',
      'snapshot:tags.updated',
      'activity:tags.updated',
      'snapshot:policy.updated',
      'activity:policy.updated',
      'snapshot:record.provisioned',
      'activity:record.provisioned',
    ]);
    expect(rows[0]!.record_value).toBeNull();
    expect(rows[2]!.record_value).toBe(`v=DMARC1; p=quarantine; pct=30; rua=${SERVICE_RUA}`);
    expect(rows[5]!.actor).toBe('Olivia Owner <olivia.owner@acme.example>');
    expect(rows.every((r, i) => i === 0 || r.occurred_at <= rows[i - 1]!.occurred_at)).toBe(true);
    expect(rows.some((r) => 'lookup_count' in r)).toBe(false);

    const page2 = await svc.call('GET', `/domains/${id}/dmarc/history`, {
      token: reader,
      query: { page: 2, limit: 3 },
    });
    expect(page2.body.pagination).toEqual({ page: 2, limit: 3, total: 8, has_more: true });
    expect(page2.body.data.map((r: { id: number }) => r.id)).toEqual(rows.slice(3, 6).map((r: any) => r.id)); // eslint-disable-line @typescript-eslint/no-explicit-any
  });

  it('answers 404 for another team’s domain', async () => {
    const res = await svc.call('GET', `/domains/${otherTeamDomain}/dmarc/history`, { token: owner });
    expect(res.status).toBe(404);
  });
});

describe('recommendation', () => {
  it('keeps p=none and says why when no aggregate reports arrived', async () => {
    const id = addDomain(svc.seed!.teamId, 'dmarc-rec.example');
    await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner });
    const res = await svc.call('POST', `/domains/${id}/dmarc/recommendation`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      current_policy: 'none',
      recommended_policy: 'none',
      ready: false,
      stats: { monitoring_days: 0, total_messages: 0, dmarc_pass_rate: 0, failing_sources: 0 },
    });
    expect(res.body.data.reasons[0]).toMatch(/No DMARC aggregate reports in the last 30 days/);
  });

  it('422 for a monitoring window outside 7..365 days; 404 for another team', async () => {
    const id = addDomain(svc.seed!.teamId, 'dmarc-rec2.example');
    const res = await svc.call('POST', `/domains/${id}/dmarc/recommendation`, {
      token: reader,
      body: { monitoring_days: 3 },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('body.monitoring_days');
    expect(
      (await svc.call('POST', `/domains/${otherTeamDomain}/dmarc/recommendation`, { token: owner })).status,
    ).toBe(404);
  });
});

// Aggregate-report rows as the DMARC report ingestion stores them (035_dmarc_reports.sql): one report per day
// ending today, `pass` aligned messages from one source and `fail` unaligned ones from another.
function seedReports(domainId: number, fqdn: string, days: number, pass: number, fail: number): void {
  const report = svc.db.prepare(
    `INSERT INTO dmarc_reports (domain_id, org_name, email, report_id, date_begin, date_end, policy_domain,
       policy_adkim, policy_aspf, policy_p, policy_sp, policy_pct, record_count, message_count, received_at)
     VALUES (?, 'google.com', 'noreply@google.com', ?, ?, ?, ?, 'r', 'r', 'none', 'none', 100, 2, ?, ?)`,
  );
  const record = svc.db.prepare(
    `INSERT INTO dmarc_report_records (report_id, source_ip, source_name, count, disposition, policy_dkim,
       policy_spf, header_from) VALUES (?, ?, ?, ?, 'none', ?, ?, ?)`,
  );
  const today = svc.clock.now().getTime();
  for (let d = 0; d < days; d++) {
    const begin = new Date(today - d * 86_400_000).toISOString().slice(0, 10);
    const id = Number(
      report.run(
        domainId,
        `r-${fqdn}-${d}`,
        `${begin}T00:00:00Z`,
        `${begin}T23:59:59Z`,
        fqdn,
        pass + fail,
        begin,
      ).lastInsertRowid,
    );
    record.run(id, '192.0.2.10', 'mail.example', pass, 'pass', 'fail', fqdn);
    if (fail > 0) record.run(id, '203.0.113.66', 'unknown', fail, 'fail', 'fail', fqdn);
  }
}

describe('recommendation from aggregate data', () => {
  async function recommend(
    fqdn: string,
    setup: { p?: string; days: number; pass: number; fail: number },
    body?: unknown,
  ) {
    const id = addDomain(svc.seed!.teamId, fqdn);
    await svc.call('POST', `/domains/${id}/hosted-dmarc`, {
      token: owner,
      body: setup.p ? { p: setup.p } : undefined,
    });
    seedReports(id, fqdn, setup.days, setup.pass, setup.fail);
    const res = await svc.call('POST', `/domains/${id}/dmarc/recommendation`, { token: reader, body });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  it('none → quarantine at ≥ 95% aligned over ≥ 14 days', async () => {
    const data = await recommend('rec-up.example', { days: 20, pass: 97, fail: 3 });
    expect(data).toMatchObject({
      current_policy: 'none',
      recommended_policy: 'quarantine',
      recommended_pct: 100,
      ready: true,
      stats: { monitoring_days: 20, total_messages: 2000, dmarc_pass_rate: 97, failing_sources: 1 },
    });
    expect(data.reasons[0]).toMatch(/97% of 2000 messages passed DMARC over 20 days/);
  });

  it('stays at none with too few days of data', async () => {
    const data = await recommend('rec-short.example', { days: 10, pass: 100, fail: 0 });
    expect(data).toMatchObject({ recommended_policy: 'none', ready: false, stats: { monitoring_days: 10 } });
    expect(data.reasons[0]).toBe('Only 10 days of report data; p=quarantine needs at least 14.');
  });

  it('stays at none when too many messages fail, naming the failing sources', async () => {
    const data = await recommend('rec-fail.example', { days: 20, pass: 90, fail: 10 });
    expect(data).toMatchObject({ recommended_policy: 'none', ready: false, stats: { dmarc_pass_rate: 90 } });
    expect(data.reasons[0]).toBe(
      '90% of messages pass DMARC; p=quarantine needs at least 95% (fix the 1 failing source first).',
    );
  });

  it('quarantine → reject at ≥ 98% over ≥ 30 days; the window limits the days weighed', async () => {
    const data = await recommend('rec-reject.example', { p: 'quarantine', days: 40, pass: 99, fail: 1 });
    expect(data).toMatchObject({
      current_policy: 'quarantine',
      recommended_policy: 'reject',
      ready: true,
      stats: { monitoring_days: 30, total_messages: 3000, dmarc_pass_rate: 99 },
    });
    const short = await recommend(
      'rec-reject-14.example',
      { p: 'quarantine', days: 40, pass: 99, fail: 1 },
      {
        monitoring_days: 14,
      },
    );
    expect(short).toMatchObject({
      recommended_policy: 'quarantine',
      ready: false,
      stats: { monitoring_days: 14 },
    });
  });

  it('stays at reject', async () => {
    const data = await recommend('rec-max.example', { p: 'reject', days: 30, pass: 100, fail: 0 });
    expect(data).toMatchObject({ current_policy: 'reject', recommended_policy: 'reject', ready: false });
  });
});

describe('members see only the domains granted to them', () => {
  it('answers 404 to a viewer for the hosted record of a domain not granted, 200 once granted', async () => {
    const id = addDomain(svc.seed!.teamId, 'dmarc-granted.example');
    expect((await svc.call('POST', `/domains/${id}/hosted-dmarc`, { token: owner })).status).toBe(201);
    const { token: viewer } = await svc.createToken(['domains:read'], { userId: svc.seed!.members.viewer });
    const before = await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: viewer });
    expect(before.status).toBe(404);
    expect(before.body.error.code).toBe('not_found');
    svc.db
      .prepare('INSERT INTO user_domains (user_id, domain_id) VALUES (?, ?)')
      .run(svc.seed!.members.viewer, id);
    const after = await svc.call('GET', `/domains/${id}/hosted-dmarc`, { token: viewer });
    expect(after.status).toBe(200);
    expect(after.body.data.domain_id).toBe(id);
  });
});
