// Verification and DNS checks over real HTTP, against records published in the sandbox zone: what each
// protocol's record is found to be, SPF's lookup count over its include tree, the per-protocol verified
// flags, and the spec's rule that a check-dns result is stored and readable for 7 days (not a second more).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';
import { DnsError, createStaticResolver, type DnsResolve } from '../../../shared/email-auth/dns.ts';

const DAY = 86_400_000;
const SECURE = {
  dmarc: 'v=DMARC1; p=reject; rua=mailto:dmarc@secure.example',
  spf: 'v=spf1 include:_spf.sender.example ip4:198.51.100.0/24 -all',
  mta_sts: 'v=STSv1; id=20260615120000',
  tls_rpt: 'v=TLSRPTv1; rua=mailto:tls@secure.example',
  bimi: 'v=BIMI1; l=https://secure.example/logo.svg; a=https://secure.example/vmc.pem',
};

let svc: ServiceHarness;
let owner: string;
let admin: string;
let secureId: number;
let brokenId: number;
let foreignId: number;

async function publish(fqdn: string, type: string, value: string | null): Promise<void> {
  const res = await svc.sandbox('PUT', `/dns/${fqdn}/${type}`, { value });
  expect(res.status).toBe(200);
}

async function domain(fqdn: string, token = owner): Promise<number> {
  const res = await svc.call('POST', '/domains', { token, body: { fqdn } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

beforeAll(async () => {
  svc = await startService();
  owner = (await svc.createToken([...ALL_V1_SCOPE_IDS])).token;
  admin = (await svc.createToken([...ALL_V1_SCOPE_IDS], { userId: svc.seed!.members.admin })).token;
  secureId = await domain('secure.example');
  for (const [type, value] of Object.entries(SECURE)) await publish('secure.example', type, value);
  await publish('_spf.sender.example', 'spf', 'v=spf1 ip4:192.0.2.0/24 ~all');
  await publish('secure.example', 'mx', '20 mx2.secure.example, 10 mx1.secure.example');

  brokenId = await domain('broken.example');
  await publish('broken.example', 'dmarc', 'v=DMARC1; p=maybe');
  // 11 includes: one more DNS lookup than receivers allow.
  const includes = Array.from({ length: 11 }, (_, i) => `include:i${i}.chain.example`).join(' ');
  await publish('broken.example', 'spf', `v=spf1 ${includes} -all`);
  for (let i = 0; i < 11; i++) await publish(`i${i}.chain.example`, 'spf', 'v=spf1 -all');

  const other = await svc.sandbox('POST', '/accounts', { name: 'Other Co', plan: 'suite' });
  const otherOwner = (await svc.createToken([...ALL_V1_SCOPE_IDS], { userId: other.body.data.owner_user_id }))
    .token;
  foreignId = await domain('foreign.example', otherOwner);
});

afterAll(() => stopService(svc));

describe('POST /domains/{domain_id}/check-dns', () => {
  it('returns what each protocol publishes, parsed, with the SPF lookup count and the MX set', async () => {
    const res = await svc.call('POST', `/domains/${secureId}/check-dns`, { token: owner });
    expect(res.status).toBe(200);
    const now = svc.clock.now();
    expect(res.body.data).toMatchObject({
      domain_id: secureId,
      fqdn: 'secure.example',
      fetched_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 7 * DAY).toISOString(),
      mx: ['10 mx1.secure.example', '20 mx2.secure.example'],
    });
    const { records } = res.body.data;
    expect(records.dmarc).toEqual({
      name: '_dmarc.secure.example',
      found: true,
      values: [SECURE.dmarc],
      valid: true,
      lookup_count: null,
      errors: [],
      warnings: [],
    });
    expect(records.spf).toMatchObject({
      name: 'secure.example',
      found: true,
      values: [SECURE.spf],
      valid: true,
      lookup_count: 1,
    });
    expect(records.mta_sts).toMatchObject({ name: '_mta-sts.secure.example', found: true, valid: true });
    expect(records.tls_rpt).toMatchObject({ name: '_smtp._tls.secure.example', found: true, valid: true });
    expect(records.bimi).toMatchObject({ name: 'default._bimi.secure.example', found: true, valid: true });
    const d = await svc.call('GET', `/domains/${secureId}`, { token: owner });
    expect(d.body.data.dns_checked_at).toBe(now.toISOString());
  });

  it('reports broken, over-limit and missing records with their errors', async () => {
    const res = await svc.call('POST', `/domains/${brokenId}/check-dns`, { token: owner });
    expect(res.status).toBe(200);
    const { records, mx } = res.body.data;
    expect(records.dmarc).toMatchObject({ found: true, valid: false, values: ['v=DMARC1; p=maybe'] });
    expect(records.dmarc.errors.join(' ')).toContain('"maybe" is not a policy');
    expect(records.spf).toMatchObject({ found: true, valid: false, lookup_count: 11 });
    expect(records.spf.errors.join(' ')).toContain('more than 10 DNS lookups');
    expect(records.mta_sts).toMatchObject({ found: false, valid: false, values: [] });
    expect(records.mta_sts.errors).toEqual(['no MTA-STS record is published at _mta-sts.broken.example']);
    expect(records.tls_rpt.found).toBe(false);
    expect(records.bimi.found).toBe(false);
    expect(mx).toEqual([]);
  });

  it('reports two published SPF records as found but invalid', async () => {
    const id = await domain('twice.example');
    const at = svc.clock.now().toISOString();
    const insert = svc.db.prepare(
      "INSERT INTO dns_records (zone, name, rrtype, value, updated_at) VALUES ('twice.example', 'twice.example', 'TXT', ?, ?)",
    );
    insert.run('v=spf1 -all', at);
    insert.run('v=spf1 ~all', at);
    const res = await svc.call('POST', `/domains/${id}/check-dns`, { token: owner });
    expect(res.body.data.records.spf).toMatchObject({
      found: true,
      valid: false,
      values: ['v=spf1 -all', 'v=spf1 ~all'],
    });
    expect(res.body.data.records.spf.errors[0]).toContain('2 SPF records');
  });

  it('is the owner’s (403 for a member) and 404 for another team’s domain', async () => {
    const member = await svc.call('POST', `/domains/${secureId}/check-dns`, { token: admin });
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('team_owner_required');
    const foreign = await svc.call('POST', `/domains/${foreignId}/check-dns`, { token: owner });
    expect(foreign.status).toBe(404);
  });
});

describe('GET /domains/{domain_id}/dns-fetch-result', () => {
  it('answers 404 not_found before any check', async () => {
    const id = await domain('never-checked.example');
    const res = await svc.call('GET', `/domains/${id}/dns-fetch-result`, { token: owner });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.body.error.message).toContain('7 days');
  });

  it('serves the stored result for 7 days and not one second longer', async () => {
    const id = await domain('seven-days.example');
    await publish('seven-days.example', 'dmarc', 'v=DMARC1; p=none');
    const checked = await svc.call('POST', `/domains/${id}/check-dns`, { token: owner });
    // The record changes afterwards: the stored result still shows what the check saw.
    await publish('seven-days.example', 'dmarc', 'v=DMARC1; p=quarantine');
    svc.clock.advance(7 * DAY - 1000);
    const stored = await svc.call('GET', `/domains/${id}/dns-fetch-result`, { token: owner });
    expect(stored.status).toBe(200);
    expect(stored.body.data).toEqual(checked.body.data);
    expect(stored.body.data.records.dmarc.values).toEqual(['v=DMARC1; p=none']);
    svc.clock.advance(2000); // 7 days + 1 s after the check
    const expired = await svc.call('GET', `/domains/${id}/dns-fetch-result`, { token: owner });
    expect(expired.status).toBe(404);
    expect(expired.body.error.code).toBe('not_found');
    // A new check stores a new result.
    await svc.call('POST', `/domains/${id}/check-dns`, { token: owner });
    const fresh = await svc.call('GET', `/domains/${id}/dns-fetch-result`, { token: owner });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.records.dmarc.values).toEqual(['v=DMARC1; p=quarantine']);
    expect(fresh.body.data.fetched_at).toBe(svc.clock.now().toISOString());
  });

  it('is readable by a member who sees the domain (domains:read); 404 for another team', async () => {
    await svc.call('POST', `/domains/${secureId}/check-dns`, { token: owner });
    const reader = (await svc.createToken(['domains:read'], { userId: svc.seed!.members.admin })).token;
    expect((await svc.call('GET', `/domains/${secureId}/dns-fetch-result`, { token: reader })).status).toBe(
      200,
    );
    expect((await svc.call('GET', `/domains/${foreignId}/dns-fetch-result`, { token: owner })).status).toBe(
      404,
    );
  });
});

describe('POST /domains/{domain_id}/verify and GET /domains/{domain_id}/status', () => {
  it('reports every protocol not checked before the first verification', async () => {
    const id = await domain('fresh.example');
    const res = await svc.call('GET', `/domains/${id}/status`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      fqdn: 'fresh.example',
      verified: false,
      checked_at: null,
    });
    for (const p of ['dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi']) {
      expect(res.body.data.protocols[p]).toEqual({
        verified: false,
        status: 'not_checked',
        record_value: null,
        message: null,
      });
    }
  });

  it('verifies what the domain publishes and sets the domain’s protocol flags', async () => {
    const res = await svc.call('POST', `/domains/${secureId}/verify`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.data.verified).toBe(true);
    expect(res.body.data.checked_at).toBe(svc.clock.now().toISOString());
    expect(res.body.data.protocols.dmarc).toEqual({
      verified: true,
      status: 'valid',
      record_value: SECURE.dmarc,
      message: 'the record published at _dmarc.secure.example is valid',
    });
    const d = await svc.call('GET', `/domains/${secureId}`, { token: owner });
    expect(d.body.data.protocols).toEqual({
      dmarc: true,
      spf: true,
      mta_sts: true,
      tls_rpt: true,
      bimi: true,
    });
    expect(d.body.data.verified).toBe(true);
    const status = await svc.call('GET', `/domains/${secureId}/status`, { token: owner });
    expect(status.body.data).toEqual(res.body.data);
  });

  it('un-verifies a protocol whose record was removed or broken', async () => {
    const id = await domain('changing.example');
    await publish('changing.example', 'dmarc', 'v=DMARC1; p=none');
    await publish('changing.example', 'tls_rpt', 'v=TLSRPTv1; rua=mailto:tls@changing.example');
    const first = await svc.call('POST', `/domains/${id}/verify`, { token: owner });
    expect(first.body.data.protocols.dmarc.verified).toBe(true);
    expect(first.body.data.protocols.tls_rpt.verified).toBe(true);
    await publish('changing.example', 'dmarc', null);
    await publish('changing.example', 'tls_rpt', 'v=TLSRPTv1; rua=ftp://nope');
    const second = await svc.call('POST', `/domains/${id}/verify`, { token: owner });
    expect(second.body.data.protocols.dmarc).toMatchObject({
      verified: false,
      status: 'missing',
      record_value: null,
    });
    expect(second.body.data.protocols.dmarc.message).toBe(
      'no DMARC record is published at _dmarc.changing.example',
    );
    expect(second.body.data.protocols.tls_rpt).toMatchObject({ verified: false, status: 'invalid' });
    const d = await svc.call('GET', `/domains/${id}`, { token: owner });
    expect(d.body.data.protocols.dmarc).toBe(false);
  });

  it('checks record values given in the body instead of the live DNS', async () => {
    const res = await svc.call('POST', `/domains/${brokenId}/verify`, {
      token: owner,
      body: {
        dmarc_record: 'v=DMARC1; p=quarantine',
        spf_record: 'v=spf1 ip4:203.0.113.0/24 -all',
        bimi_record: 'v=BIMI1; l=http://x.example/l.svg',
      },
    });
    expect(res.status).toBe(200);
    const p = res.body.data.protocols;
    expect(p.dmarc).toEqual({
      verified: true,
      status: 'valid',
      record_value: 'v=DMARC1; p=quarantine',
      message: 'the supplied record is valid',
    });
    expect(p.spf).toMatchObject({
      verified: true,
      status: 'valid',
      record_value: 'v=spf1 ip4:203.0.113.0/24 -all',
    });
    expect(p.bimi).toMatchObject({ verified: false, status: 'invalid' });
    expect(p.bimi.message).toMatch(/https/);
    // Not supplied: looked up (broken.example publishes no MTA-STS record).
    expect(p.mta_sts).toMatchObject({ verified: false, status: 'missing' });
  });

  it('refuses unknown and non-string body fields (422)', async () => {
    for (const body of [{ dkim_record: 'x' }, { dmarc_record: 5 }, { spf_record: 'x'.repeat(4097) }]) {
      const res = await svc.call('POST', `/domains/${secureId}/verify`, { token: owner, body });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toMatch(/^body/);
    }
  });

  it('is the owner’s (403), 404 for another team; status is readable by members who see the domain', async () => {
    expect((await svc.call('POST', `/domains/${secureId}/verify`, { token: admin })).status).toBe(403);
    expect((await svc.call('POST', `/domains/${foreignId}/verify`, { token: owner })).status).toBe(404);
    expect((await svc.call('GET', `/domains/${foreignId}/status`, { token: owner })).status).toBe(404);
    const reader = (await svc.createToken(['domains:read'], { userId: svc.seed!.members.admin })).token;
    const status = await svc.call('GET', `/domains/${secureId}/status`, { token: reader });
    expect(status.status).toBe(200);
    expect(status.body.data.verified).toBe(true);
  });
});

describe('DNS failures', () => {
  it('keep the previous verified flag and report the lookup error', async () => {
    let failing = false;
    const zone = createStaticResolver({
      '_dmarc.flaky.example': { TXT: ['v=DMARC1; p=reject'] },
      'flaky.example': { TXT: ['v=spf1 -all'] },
    });
    const resolver = ((name: string, rrtype: 'TXT') => {
      if (failing && name === '_dmarc.flaky.example')
        return Promise.reject(new DnsError('ETIMEOUT', name, rrtype));
      return zone(name, rrtype);
    }) as DnsResolve;
    const flaky = await startService({ resolver });
    try {
      const t = (await flaky.createToken([...ALL_V1_SCOPE_IDS])).token;
      const id = (await flaky.call('POST', '/domains', { token: t, body: { fqdn: 'flaky.example' } })).body
        .data.id;
      const ok = await flaky.call('POST', `/domains/${id}/verify`, { token: t });
      expect(ok.body.data.protocols.dmarc.verified).toBe(true);
      failing = true;
      const res = await flaky.call('POST', `/domains/${id}/verify`, { token: t });
      expect(res.body.data.protocols.dmarc).toMatchObject({ verified: true, status: 'dns_error' });
      expect(res.body.data.protocols.dmarc.message).toContain('ETIMEOUT');
      const check = await flaky.call('POST', `/domains/${id}/check-dns`, { token: t });
      expect(check.body.data.records.dmarc).toMatchObject({ found: false, valid: false });
      expect(check.body.data.records.dmarc.errors[0]).toContain('ETIMEOUT');
      flaky.expectNoContractViolations();
    } finally {
      await flaky.close();
    }
  });
});
