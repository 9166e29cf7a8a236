// Hosted TLS-RPT configuration over real HTTP: setup with the service's reporting address, verification
// through the resolver (delegated, missing, a different record), republish and validated overrides.
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

const DEFAULT = 'v=TLSRPTv1; rua=mailto:tls-rpt@reports.authwatch.example';

beforeAll(async () => {
  ({ svc, owner, member, reader, otherTeamDomain, addDomain } = await startOwnerWorld('other-tls.example'));
});

afterAll(() => stopService(svc));

describe('setup and verification', () => {
  const fqdn = 'tls-one.example';
  let id: number;
  beforeAll(() => {
    id = addDomain(svc.seed!.teamId, fqdn);
  });

  it('404 before setup; setup publishes the default record, pending until DNS points at it', async () => {
    expect((await svc.call('GET', `/domains/${id}/tls-rpt`, { token: reader })).status).toBe(404);
    const res = await svc.call('POST', `/domains/${id}/tls-rpt/setup`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      enabled: true,
      record_name: '_smtp._tls.tls-one.example',
      record_value: DEFAULT,
      reporting_address: 'tls-rpt@reports.authwatch.example',
      verified: false,
      verification_status: 'pending_dns',
      reports_count: 0,
    });
    expect(res.body.data.dns_targets).toEqual([
      {
        type: 'CNAME',
        name: '_smtp._tls.tls-one.example',
        value: 'tls-one.example.tls-rpt.hosted.authwatch.example',
        ttl: 3600,
      },
    ]);
  });

  it('is verified once the customer delegates, and a lookup of _smtp._tls sees the hosted record', async () => {
    await svc.sandbox('PUT', `/delegations/${fqdn}/tls_rpt`, { delegated: true });
    const res = await svc.call('GET', `/domains/${id}/tls-rpt`, { token: reader });
    expect(res.body.data).toMatchObject({ verified: true, verification_status: 'verified' });
    const seen = await lookupPublishedRecord('tls_rpt', fqdn, createSandboxZoneResolver(svc.db));
    expect(seen.record).toBe(DEFAULT);
  });

  it('PATCH record_value replaces the served record (seen through the delegation); no body republishes', async () => {
    const value = 'v=TLSRPTv1; rua=mailto:tls@tls-one.example,https://reports.tls-one.example/tlsrpt';
    const res = await svc.call('PATCH', `/domains/${id}/tls-rpt`, {
      token: owner,
      body: { record_value: value },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ record_value: value, verified: true });
    const seen = await lookupPublishedRecord('tls_rpt', fqdn, createSandboxZoneResolver(svc.db));
    expect(seen.record).toBe(value);
    const again = await svc.call('PATCH', `/domains/${id}/tls-rpt`, { token: owner });
    expect(again.status).toBe(200);
    expect(again.body.data.record_value).toBe(value);
    // Setup again keeps the owner's record.
    const setup = await svc.call('POST', `/domains/${id}/tls-rpt/setup`, { token: owner });
    expect(setup.body.data.record_value).toBe(value);
  });

  it.each([
    ['v=TLSRPTv1', 'body.record_value', /rua is required/],
    ['v=TLSRPTv1; rua=ftp://reports.example.com', 'body.record_value', /mailto: or https:/],
    ['v=TLSRPTv1; rua=mailto:nobody', 'body.record_value', /not an e-mail address/],
    ['v=TLSRPTv2; rua=mailto:a@example.com', 'body.record_value', /v=TLSRPTv1/],
    ['v=DMARC1; p=none', 'body.record_value', /pattern/],
  ])('422 for record_value %s, record unchanged', async (record_value, field, message) => {
    const before = (await svc.call('GET', `/domains/${id}/tls-rpt`, { token: reader })).body.data
      .record_value;
    const res = await svc.call('PATCH', `/domains/${id}/tls-rpt`, { token: owner, body: { record_value } });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe(field);
    expect(res.body.error.details.map((d: { message: string }) => d.message).join(' ')).toMatch(message);
    expect((await svc.call('GET', `/domains/${id}/tls-rpt`, { token: reader })).body.data.record_value).toBe(
      before,
    );
  });
});

describe('verification states and access', () => {
  it('mismatch when the domain publishes its own, different record', async () => {
    const fqdn = 'tls-own.example';
    const id = addDomain(svc.seed!.teamId, fqdn);
    await svc.call('POST', `/domains/${id}/tls-rpt/setup`, { token: owner });
    await svc.sandbox('PUT', `/dns/${fqdn}/tls_rpt`, { value: 'v=TLSRPTv1; rua=mailto:old@tls-own.example' });
    const res = await svc.call('GET', `/domains/${id}/tls-rpt`, { token: reader });
    expect(res.body.data).toMatchObject({ verified: false, verification_status: 'mismatch' });
  });

  it('403 for a member, 404 for another team or before setup', async () => {
    const id = addDomain(svc.seed!.teamId, 'tls-access.example');
    const denied = await svc.call('POST', `/domains/${id}/tls-rpt/setup`, { token: member });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('team_owner_required');
    expect((await svc.call('PATCH', `/domains/${id}/tls-rpt`, { token: owner })).status).toBe(404);
    await svc.call('POST', `/domains/${id}/tls-rpt/setup`, { token: owner });
    expect((await svc.call('PATCH', `/domains/${id}/tls-rpt`, { token: member })).status).toBe(403);
    expect((await svc.call('GET', `/domains/${otherTeamDomain}/tls-rpt`, { token: owner })).status).toBe(404);
    expect(
      (await svc.call('POST', `/domains/${otherTeamDomain}/tls-rpt/setup`, { token: owner })).status,
    ).toBe(404);
    expect((await svc.call('POST', `/domains/${id}/tls-rpt/setup`, { token: reader })).status).toBe(403);
  });
});

describe('reports_count', () => {
  it('counts the TLS reports stored for the domain', async () => {
    const id = addDomain(svc.seed!.teamId, 'tls-count.example');
    const setup = await svc.call('POST', `/domains/${id}/tls-rpt/setup`, { token: owner });
    expect(setup.body.data.reports_count).toBe(0);
    // Rows as the TLS report ingestion stores them (036_tls_reports.sql); another domain's report is not counted.
    const insert = svc.db.prepare(
      `INSERT INTO tls_reports (domain_id, report_id, organization_name, date_range_start, date_range_end,
         policy_domain, policy_type, policy_mode, total_successful_session_count, total_failure_session_count,
         received_at)
       VALUES (?, ?, 'Company-X', '2026-06-14T00:00:00Z', '2026-06-14T23:59:59Z', ?, 'sts', 'testing', 10, 1, ?)`,
    );
    const at = svc.clock.now().toISOString();
    insert.run(id, 'r-1', 'tls-count.example', at);
    insert.run(id, 'r-2', 'tls-count.example', at);
    insert.run(addDomain(svc.seed!.teamId, 'tls-count-other.example'), 'r-3', 'tls-count-other.example', at);
    const res = await svc.call('GET', `/domains/${id}/tls-rpt`, { token: reader });
    expect(res.body.data.reports_count).toBe(2);
  });
});
