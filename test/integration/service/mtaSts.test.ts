// Hosted MTA-STS over real HTTP: the spec's rules table row by row (setup from live MX, mode with MX
// refresh, reset), policy edits (text or fields) with 422 details, the served web file (CRLF), the policy id
// rotation, and the checker (TXT id, policy host, MX coverage, CAA).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticResolver, type DnsRecordType } from '../../../shared/email-auth/dns.ts';
import { mtaStsPolicyId } from '../../../shared/email-auth/mtaStsPolicy.ts';
import { writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { insertDomain, startOwnerWorld, type OwnerWorld } from '../../../test/support/ownerWorld.ts';

let svc: ServiceHarness;
let owner: string;
let member: string;
let reader: string;
let otherTeamDomain: number;
let addDomain: OwnerWorld['addDomain'];

async function setMx(fqdn: string, value: string | null): Promise<void> {
  const res = await svc.sandbox('PUT', `/dns/${fqdn}/mx`, { value });
  expect(res.status).toBe(200);
}

async function setUp(fqdn: string, mx: string | null): Promise<number> {
  const id = addDomain(svc.seed!.teamId, fqdn);
  await setMx(fqdn, mx);
  const res = await svc.call('POST', `/domains/${id}/mta-sts/setup`, { token: owner });
  expect(res.status).toBe(200);
  return id;
}

beforeAll(async () => {
  ({ svc, owner, member, reader, otherTeamDomain, addDomain } = await startOwnerWorld('other-sts.example'));
});

afterAll(() => stopService(svc));

describe('rule: POST setup with no policy yet → default policy, mode none, from live MX records', () => {
  it('404 before setup; setup builds mode none from the MX records in priority order', async () => {
    const id = addDomain(svc.seed!.teamId, 'sts-one.example');
    expect((await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${id}/mta-sts/web-file`, { token: reader })).status).toBe(404);
    await setMx('sts-one.example', '20 mx2.sts-one.example, 10 mx1.sts-one.example');
    const res = await svc.call('POST', `/domains/${id}/mta-sts/setup`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      enabled: true,
      status: 'pending_dns',
      mode: 'none',
      max_age: 604800,
      mx: ['mx1.sts-one.example', 'mx2.sts-one.example'],
      policy_id: '20260615120000',
      policy_url: 'https://mta-sts.sts-one.example/.well-known/mta-sts.txt',
      in_sync: null,
      last_checked_at: null,
    });
    expect(res.body.data.cname_targets).toEqual([
      {
        type: 'CNAME',
        name: '_mta-sts.sts-one.example',
        value: 'sts-one.example.mta-sts.hosted.authwatch.example',
        ttl: 3600,
      },
      {
        type: 'CNAME',
        name: 'mta-sts.sts-one.example',
        value: 'mta-sts.hosted.authwatch.example',
        ttl: 3600,
      },
    ]);
    expect(res.body.data.hosted_dns_records[0]).toEqual({
      type: 'TXT',
      name: 'sts-one.example.mta-sts.hosted.authwatch.example',
      value: 'v=STSv1; id=20260615120000',
      ttl: 3600,
    });
    expect((await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data).toEqual(
      res.body.data,
    );
  });

  it('also provisions hosted TLS-RPT', async () => {
    const id = await setUp('sts-tls.example', '10 mx.sts-tls.example');
    const tls = await svc.call('GET', `/domains/${id}/tls-rpt`, { token: reader });
    expect(tls.status).toBe(200);
    expect(tls.body.data.record_value).toBe('v=TLSRPTv1; rua=mailto:tls-rpt@reports.authwatch.example');
  });

  it('a domain without MX gets a mode none policy without mx lines', async () => {
    const id = await setUp('sts-nomx.example', null);
    const file = await svc.call('GET', `/domains/${id}/mta-sts/web-file`, { token: reader });
    expect(file.body.data.content).toBe('version: STSv1\r\nmode: none\r\nmax_age: 604800\r\n');
  });

  it('setup again keeps the policy (idempotent)', async () => {
    const id = await setUp('sts-twice.example', '10 mx.sts-twice.example');
    svc.clock.advance(5000);
    await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, { token: owner, body: { mode: 'testing' } });
    const before = (await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data;
    svc.clock.advance(5000);
    const again = await svc.call('POST', `/domains/${id}/mta-sts/setup`, { token: owner });
    expect(again.status).toBe(200);
    expect(again.body.data.mode).toBe('testing');
    expect(again.body.data.policy_id).toBe(before.policy_id);
  });

  it('a failed MX lookup is a 422 that creates nothing', async () => {
    const broken = await startService({
      resolver: createStaticResolver({ 'sts-broken.example': { error: 'ESERVFAIL' } }),
    });
    try {
      const token = (await broken.createToken(['domains:read', 'domains:write'])).token;
      const id = insertDomain(broken, broken.seed!.teamId, 'sts-broken.example');
      const res = await broken.call('POST', `/domains/${id}/mta-sts/setup`, { token });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].message).toMatch(
        /MX lookup of sts-broken.example failed \(ESERVFAIL\)/,
      );
      expect((await broken.call('GET', `/domains/${id}/mta-sts`, { token })).status).toBe(404);
      expect((await broken.call('GET', `/domains/${id}/tls-rpt`, { token })).status).toBe(404);
      broken.expectNoContractViolations();
    } finally {
      await broken.close();
    }
  });
});

describe('rule: PATCH mode → mode set, MX lines refreshed from live DNS', () => {
  it('picks up a changed MX in the zone and changes the policy id', async () => {
    const id = await setUp('sts-mode.example', '10 mx1.sts-mode.example');
    const first = (await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data;
    await setMx('sts-mode.example', '5 new-mx.sts-mode.example, 10 mx1.sts-mode.example');
    svc.clock.advance(61_000);
    const res = await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, {
      token: owner,
      body: { mode: 'testing' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      mode: 'testing',
      mx: ['new-mx.sts-mode.example', 'mx1.sts-mode.example'],
      max_age: 604800,
      policy_id: mtaStsPolicyId(svc.clock.now()),
    });
    expect(res.body.data.policy_id).not.toBe(first.policy_id);
    const file = await svc.call('GET', `/domains/${id}/mta-sts/web-file`, { token: reader });
    expect(file.body.data).toEqual({
      domain_id: id,
      url: 'https://mta-sts.sts-mode.example/.well-known/mta-sts.txt',
      content:
        'version: STSv1\r\nmode: testing\r\nmx: new-mx.sts-mode.example\r\nmx: mx1.sts-mode.example\r\nmax_age: 604800\r\n',
    });
    // MX dropped in DNS: enforce is refused (it needs mx lines) and nothing changes.
    await setMx('sts-mode.example', null);
    const enforce = await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, {
      token: owner,
      body: { mode: 'enforce' },
    });
    expect(enforce.status).toBe(422);
    expect(enforce.body.error.details[0].field).toBe('body.mx');
    expect((await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data.mode).toBe(
      'testing',
    );
  });

  it('keeps the id when nothing changes, and gives two changes within one second two ids', async () => {
    const id = await setUp('sts-ids.example', '10 mx.sts-ids.example');
    const setupId = (await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data.policy_id;
    const a = (
      await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, { token: owner, body: { mode: 'none' } })
    ).body.data.policy_id;
    expect(a).toBe(setupId);
    const b = (
      await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, { token: owner, body: { mode: 'testing' } })
    ).body.data.policy_id;
    const c = (
      await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, { token: owner, body: { mode: 'enforce' } })
    ).body.data.policy_id;
    expect(new Set([a, b, c]).size).toBe(3);
    expect(b).toBe(`${a}1`);
    expect(c).toBe(`${a}2`);
    const same = (
      await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, { token: owner, body: { mode: 'enforce' } })
    ).body.data.policy_id;
    expect(same).toBe(c);
  });

  it('422 for an unknown mode; 404 before setup; 403 for a member', async () => {
    const id = await setUp('sts-mode-bad.example', '10 mx.sts-mode-bad.example');
    const bad = await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, {
      token: owner,
      body: { mode: 'strict' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('body.mode');
    const bare = addDomain(svc.seed!.teamId, 'sts-mode-bare.example');
    expect(
      (await svc.call('PATCH', `/domains/${bare}/mta-sts/mode`, { token: owner, body: { mode: 'none' } }))
        .status,
    ).toBe(404);
    const denied = await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, {
      token: member,
      body: { mode: 'none' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('team_owner_required');
  });
});

describe('rule: POST reset → mode none, current MX records, max_age 604800', () => {
  it('resets an enforcing policy with custom max_age and stale mx lines', async () => {
    const id = await setUp('sts-reset.example', '10 mx1.sts-reset.example');
    await svc.call('PATCH', `/domains/${id}/mta-sts/policy`, {
      token: owner,
      body: { mode: 'enforce', max_age: 86400, mx: ['*.old.sts-reset.example'] },
    });
    await setMx('sts-reset.example', '10 mx9.sts-reset.example');
    svc.clock.advance(1000);
    const res = await svc.call('POST', `/domains/${id}/mta-sts/reset`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ mode: 'none', max_age: 604800, mx: ['mx9.sts-reset.example'] });
    const bare = addDomain(svc.seed!.teamId, 'sts-reset-bare.example');
    expect((await svc.call('POST', `/domains/${bare}/mta-sts/reset`, { token: owner })).status).toBe(404);
    expect((await svc.call('POST', `/domains/${id}/mta-sts/reset`, { token: member })).status).toBe(403);
  });
});

describe('PATCH policy', () => {
  let id: number;
  beforeAll(async () => {
    id = await setUp('sts-policy.example', '10 mx1.sts-policy.example');
  });

  it('takes raw policy text (LF lines) and serves it with CRLF', async () => {
    const res = await svc.call('PATCH', `/domains/${id}/mta-sts/policy`, {
      token: owner,
      body: {
        policy_text:
          'version: STSv1\nmode: enforce\nmx: mx1.sts-policy.example\nmx: *.backup.example.net\nmax_age: 1209600\n',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      mode: 'enforce',
      max_age: 1209600,
      mx: ['mx1.sts-policy.example', '*.backup.example.net'],
    });
    const file = await svc.call('GET', `/domains/${id}/mta-sts/web-file`, { token: reader });
    expect(file.body.data.content).toBe(
      'version: STSv1\r\nmode: enforce\r\nmx: mx1.sts-policy.example\r\nmx: *.backup.example.net\r\nmax_age: 1209600\r\n',
    );
  });

  it('takes mode and max_age, keeping the mx lines when none are given', async () => {
    const res = await svc.call('PATCH', `/domains/${id}/mta-sts/policy`, {
      token: owner,
      body: { mode: 'testing', max_age: 86400 },
    });
    expect(res.body.data).toMatchObject({
      mode: 'testing',
      max_age: 86400,
      mx: ['mx1.sts-policy.example', '*.backup.example.net'],
    });
  });

  it.each([
    [
      { policy_text: 'version: STSv1\nmode: strict\nmx: mx1.example.com\nmax_age: 86400\n' },
      'body.policy_text',
      /mode/,
    ],
    [
      { policy_text: 'version: STSv1\nmode: enforce\nmx: mx1.example.com\n' },
      'body.policy_text',
      /max_age is required/,
    ],
    [
      { policy_text: 'version: STSv1\nmode: enforce\nmax_age: 86400\n' },
      'body.policy_text',
      /needs at least one mx/,
    ],
    [
      { policy_text: 'version: STSv1\nmode: enforce\nmx: not_a_host\nmax_age: 86400\n' },
      'body.policy_text',
      /mx/,
    ],
    [{ policy_text: 'mode: enforce' }, 'body.policy_text', /pattern|version/],
    [{ mode: 'enforce', max_age: 100 }, 'body', /./],
    [{ mode: 'enforce', max_age: 86400, mx: ['bad host'] }, 'body', /./],
    [{ mode: 'enforce', max_age: 86400, mx: [] }, 'body', /./],
    [{ mode: 'testing' }, 'body', /./],
    [{ policy_text: 'version: STSv1\nmode: none\nmax_age: 86400\n', mode: 'none' }, 'body', /./],
  ])('422 for %j', async (body, fieldPrefix, message) => {
    const before = (await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data.policy_id;
    const res = await svc.call('PATCH', `/domains/${id}/mta-sts/policy`, { token: owner, body });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field.startsWith(fieldPrefix)).toBe(true);
    expect(res.body.error.details.map((d: { message: string }) => d.message).join(' ')).toMatch(message);
    expect((await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data.policy_id).toBe(
      before,
    );
  });

  it('an enforce policy without mx lines to keep is a 422 on body.mx', async () => {
    const bare = await setUp('sts-policy-nomx.example', null);
    const res = await svc.call('PATCH', `/domains/${bare}/mta-sts/policy`, {
      token: owner,
      body: { mode: 'enforce', max_age: 86400 },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('body.mx');
  });

  it('404 for another team, 403 for a member', async () => {
    const body = { mode: 'none', max_age: 86400 };
    expect(
      (await svc.call('PATCH', `/domains/${otherTeamDomain}/mta-sts/policy`, { token: owner, body })).status,
    ).toBe(404);
    expect((await svc.call('PATCH', `/domains/${id}/mta-sts/policy`, { token: member, body })).status).toBe(
      403,
    );
    expect(
      (await svc.call('POST', `/domains/${otherTeamDomain}/mta-sts/setup`, { token: owner })).status,
    ).toBe(404);
    expect((await svc.call('POST', `/domains/${id}/mta-sts/setup`, { token: member })).status).toBe(403);
    expect(
      (await svc.call('GET', `/domains/${otherTeamDomain}/mta-sts/web-file`, { token: owner })).status,
    ).toBe(404);
  });
});

describe('check', () => {
  const fqdn = 'sts-check.example';
  let id: number;
  beforeAll(async () => {
    id = await setUp(fqdn, '10 mx1.sts-check.example, 20 mx2.sts-check.example');
    await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, { token: owner, body: { mode: 'enforce' } });
  });
  const ids = (checks: { id: string; passed: boolean }[]) => checks.map((c) => `${c.id}:${c.passed}`);

  it('without options: policy syntax and MX coverage only (read scope is enough)', async () => {
    const res = await svc.call('POST', `/domains/${id}/mta-sts/check`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ domain_id: id, valid: true, mode: 'enforce', errors: [] });
    expect(ids(res.body.data.checks)).toEqual(['policy_syntax:true', 'mx_coverage:true']);
  });

  it('verify_dns before the customer delegated: the _mta-sts record is missing', async () => {
    const res = await svc.call('POST', `/domains/${id}/mta-sts/check`, {
      token: reader,
      body: { verify_dns: true },
    });
    expect(res.body.data.valid).toBe(false);
    expect(ids(res.body.data.checks)).toEqual([
      'policy_deployed:true',
      'policy_syntax:true',
      'mx_coverage:true',
      'txt_record:false',
      'policy_host:false',
    ]);
    const sts = (await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data;
    expect(sts).toMatchObject({
      status: 'pending_dns',
      in_sync: false,
      last_checked_at: svc.clock.now().toISOString(),
    });
  });

  it('verify_dns after delegation: TXT id and policy host pass, status becomes active', async () => {
    await svc.sandbox('PUT', `/delegations/${fqdn}/mta_sts`, { delegated: true });
    const res = await svc.call('POST', `/domains/${id}/mta-sts/check`, {
      token: reader,
      body: { verify_dns: true, deploy_policy: false },
    });
    expect(res.body.data.valid).toBe(true);
    expect(ids(res.body.data.checks)).toEqual([
      'policy_syntax:true',
      'mx_coverage:true',
      'txt_record:true',
      'policy_host:true',
    ]);
    const txt = res.body.data.checks.find((c: { id: string }) => c.id === 'txt_record');
    expect(txt.message).toBe(`announces id=${res.body.data.policy_id}`);
    const sts = (await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data;
    expect(sts).toMatchObject({ status: 'active', in_sync: true });
  });

  it('reports an MX host the policy does not cover', async () => {
    await setMx(fqdn, '10 mx1.sts-check.example, 30 rogue.elsewhere.example');
    const res = await svc.call('POST', `/domains/${id}/mta-sts/check`, {
      token: reader,
      body: { verify_dns: true },
    });
    expect(res.body.data.valid).toBe(false);
    const mx = res.body.data.checks.find((c: { id: string }) => c.id === 'mx_coverage');
    expect(mx).toMatchObject({
      passed: false,
      message: 'not covered by any mx line: rogue.elsewhere.example',
    });
    expect((await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data.status).toBe(
      'error',
    );
    // The mode rule refreshes the mx lines: the policy covers the new host again.
    await svc.call('PATCH', `/domains/${id}/mta-sts/mode`, { token: owner, body: { mode: 'enforce' } });
    const again = await svc.call('POST', `/domains/${id}/mta-sts/check`, {
      token: reader,
      body: { verify_dns: true },
    });
    expect(again.body.data.valid).toBe(true);
  });

  it('a stale TXT id published by the customer instead of the CNAME is out of sync', async () => {
    await svc.sandbox('PUT', `/delegations/${fqdn}/mta_sts`, { delegated: false });
    await svc.sandbox('PUT', `/dns/${fqdn}/mta_sts`, { value: 'v=STSv1; id=2019' });
    const res = await svc.call('POST', `/domains/${id}/mta-sts/check`, {
      token: reader,
      body: { verify_dns: true },
    });
    const txt = res.body.data.checks.find((c: { id: string }) => c.id === 'txt_record');
    expect(txt.passed).toBe(false);
    expect(txt.message).toMatch(
      /announces id=2019, but the policy's id is \d+: senders will not fetch the new policy/,
    );
    expect((await svc.call('GET', `/domains/${id}/mta-sts`, { token: reader })).body.data.in_sync).toBe(
      false,
    );
  });

  it('require_caa: a CAA set that does not name the service CA fails, one that does passes', async () => {
    const put = (values: string[]) =>
      writeZoneRecords(svc.db, {
        zone: fqdn,
        name: fqdn,
        rrtype: 'CAA' as DnsRecordType,
        values,
        now: svc.clock.now(),
      });
    const caa = async () =>
      (
        await svc.call('POST', `/domains/${id}/mta-sts/check`, { token: reader, body: { require_caa: true } })
      ).body.data.checks.find((c: { id: string }) => c.id === 'caa');
    expect((await caa()).passed).toBe(true);
    put(['0 issue "digicert.com"', '0 iodef "mailto:sec@sts-check.example"']);
    const denied = await caa();
    expect(denied.passed).toBe(false);
    expect(denied.message).toMatch(
      /CAA at sts-check.example allows only digicert.com; add 0 issue "letsencrypt.org"/,
    );
    put(['0 issue "digicert.com"', '0 issue "letsencrypt.org"']);
    expect((await caa()).passed).toBe(true);
  });

  it('404 before setup and for another team; 422 for unknown options', async () => {
    const bare = addDomain(svc.seed!.teamId, 'sts-check-bare.example');
    expect((await svc.call('POST', `/domains/${bare}/mta-sts/check`, { token: reader })).status).toBe(404);
    expect(
      (await svc.call('POST', `/domains/${otherTeamDomain}/mta-sts/check`, { token: owner })).status,
    ).toBe(404);
    const bad = await svc.call('POST', `/domains/${id}/mta-sts/check`, {
      token: reader,
      body: { verify: true },
    });
    expect(bad.status).toBe(422);
  });
});
