// Hosted BIMI over real HTTP: registrations, provisioning with a logo and a certificate, overrides and
// re-sync, removal, SVG Tiny PS conversion and checks, VMC inspection of openssl-generated chains, the VMC
// analysis (with its cache) and the readiness checklist — through to a fully ready domain with a real VMC.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxZoneResolver } from '../../../service/dns/sandboxZone.ts';
import { createManualClock } from '../../../test/support/manualClock.ts';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { insertDomain, startOwnerWorld, type OwnerWorld } from '../../../test/support/ownerWorld.ts';
import { CertFactory } from '../../unit/service/bimi/certFactory.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/email-auth/${name}`, import.meta.url), 'utf8');
const LOGO = fixture('logo-tiny-ps.svg');
const PLAIN = fixture('logo-plain.svg');
const PAYPAL_VMC = fixture('paypal_vmc.pem');

const SQUARE = (body: string, root = 'viewBox="0 0 100 100"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" ${root}><title>Brand</title>${body}</svg>`;
const BAD_LOGOS: [string, string, string][] = [
  ['script', SQUARE('<script>alert(1)</script><rect width="100" height="100"/>'), 'script'],
  [
    'raster',
    SQUARE('<image href="data:image/png;base64,iVBORw0KGgo=" width="100" height="100"/>'),
    'raster_image',
  ],
  [
    'animation',
    SQUARE('<rect width="100" height="100"><animate attributeName="x" to="5" dur="1s"/></rect>'),
    'animation',
  ],
  ['non-square', SQUARE('<rect width="200" height="100"/>', 'viewBox="0 0 200 100"'), 'viewbox_not_square'],
];

let svc: ServiceHarness;
let owner: string;
let member: string;
let reader: string;
let account: string;
let otherTeamId: number;
let otherTeamDomain: number;
let addDomain: OwnerWorld['addDomain'];
let certs: CertFactory;
let chainFor: (domain: string) => Promise<string>;

beforeAll(async () => {
  ({ svc, owner, member, reader, otherTeamId, otherTeamDomain, addDomain } =
    await startOwnerWorld('other-bimi.example'));
  account = (await svc.createToken(['account:read'])).token;
  certs = await CertFactory.create();
  await certs.createCa('Sandbox BIMI Root');
  await certs.createCa('Sandbox BIMI Intermediate', 'Sandbox BIMI Root');
  const inter = readFileSync(`${certs.dir}/Sandbox BIMI Intermediate.pem`, 'utf8');
  let n = 0;
  chainFor = async (domain: string) => {
    const leaf = await certs.createLeaf(`leaf${++n}`, {
      issuer: 'Sandbox BIMI Intermediate',
      cn: 'Acme Corp',
      sans: [domain],
      bimiEku: true,
      logoSvg: LOGO,
      markType: 'Registered Mark',
    });
    return leaf + inter;
  };
});

afterAll(async () => {
  await stopService(svc);
  await certs.dispose();
});

describe('registrations', () => {
  it('lists the team’s partner registration requests only (account:read)', async () => {
    let res = await svc.call('GET', '/bimi/registrations', { token: account });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const insert = svc.db.prepare(
      `INSERT INTO bimi_registrations (team_id, domain_id, fqdn, partner, status, created_at, updated_at)
       VALUES (?, NULL, ?, 'Example Mail', ?, ?, ?)`,
    );
    insert.run(
      svc.seed!.teamId,
      'acme.example',
      'pending',
      '2026-06-01T00:00:00.000Z',
      '2026-06-01T00:00:00.000Z',
    );
    insert.run(
      otherTeamId,
      'other.example',
      'approved',
      '2026-06-02T00:00:00.000Z',
      '2026-06-02T00:00:00.000Z',
    );
    res = await svc.call('GET', '/bimi/registrations', { token: account });
    expect(res.body.data).toEqual([
      expect.objectContaining({
        fqdn: 'acme.example',
        partner: 'Example Mail',
        status: 'pending',
        domain_id: null,
      }),
    ]);
    const denied = await svc.call('GET', '/bimi/registrations', { token: reader });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
  });
});

describe('hosted BIMI configuration', () => {
  const fqdn = 'bimi-one.example';
  let id: number;
  beforeAll(() => {
    id = addDomain(svc.seed!.teamId, fqdn);
  });

  it('404 before provisioning; provisions with a logo and serves the record from the hosted zone', async () => {
    expect((await svc.call('GET', `/domains/${id}/bimi`, { token: reader })).status).toBe(404);
    const res = await svc.call('POST', `/domains/${id}/bimi`, { token: owner, body: { svg_content: LOGO } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      enabled: true,
      selector: 'default',
      record_name: 'default._bimi.bimi-one.example',
      record_value: 'v=BIMI1; l=https://bimi.hosted.authwatch.example/bimi-one.example/default.svg',
      logo_url: 'https://bimi.hosted.authwatch.example/bimi-one.example/default.svg',
      vmc_url: null,
      logo_status: 'valid',
      vmc_status: 'missing',
      svg: { valid: true, profile: 'tiny-ps', issues: [] },
    });
    // The hosted logo comes along, so a client can preview what it publishes.
    expect(res.body.data.svg.svg_content).toBe(LOGO);
    expect(res.body.data.dns_targets).toEqual([
      {
        type: 'CNAME',
        name: 'default._bimi.bimi-one.example',
        value: 'default.bimi-one.example.bimi.hosted.authwatch.example',
        ttl: 3600,
      },
    ]);
    const zone = createSandboxZoneResolver(svc.db);
    expect(await zone('default.bimi-one.example.bimi.hosted.authwatch.example', 'TXT')).toEqual([
      [res.body.data.record_value],
    ]);
    expect((await svc.call('POST', `/domains/${id}/bimi`, { token: owner })).status).toBe(422);
  });

  it('uploading a certificate adds a= and reports its status (an untrusted chain is invalid)', async () => {
    const res = await svc.call('PATCH', `/domains/${id}/bimi`, {
      token: owner,
      body: { vmc_pem: await chainFor(fqdn) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      record_value:
        'v=BIMI1; l=https://bimi.hosted.authwatch.example/bimi-one.example/default.svg; a=https://bimi.hosted.authwatch.example/bimi-one.example/default.pem',
      vmc_url: 'https://bimi.hosted.authwatch.example/bimi-one.example/default.pem',
      vmc_status: 'invalid',
    });
  });

  it('a manual override is validated with the BIMI record rules; an empty PATCH re-syncs from the files', async () => {
    const override =
      'v=BIMI1; l=https://cdn.bimi-one.example/logo.svg; a=https://cdn.bimi-one.example/vmc.pem';
    let res = await svc.call('PATCH', `/domains/${id}/bimi`, {
      token: owner,
      body: { record_value: override },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      record_value: override,
      logo_url: 'https://cdn.bimi-one.example/logo.svg',
    });
    for (const [record_value, message] of [
      ['v=BIMI1; l=http://cdn.bimi-one.example/logo.svg', /must use https/],
      ['v=BIMI1; avp=nobody; l=https://cdn.bimi-one.example/logo.svg', /avatar preference/],
      ['v=BIMI1; v=BIMI1', /more than once/],
      ['v=DMARC1; p=none', /pattern/],
    ] as const) {
      const bad = await svc.call('PATCH', `/domains/${id}/bimi`, { token: owner, body: { record_value } });
      expect(bad.status, record_value).toBe(422);
      expect(bad.body.error.details[0].field).toBe('body.record_value');
      expect(bad.body.error.details.map((d: { message: string }) => d.message).join(' ')).toMatch(message);
    }
    res = await svc.call('PATCH', `/domains/${id}/bimi`, { token: owner });
    expect(res.body.data.record_value).toMatch(
      /^v=BIMI1; l=https:\/\/bimi\.hosted\.authwatch\.example\/bimi-one\.example\/default\.svg; a=/,
    );
  });

  it('refuses an unreadable certificate', async () => {
    const res = await svc.call('PATCH', `/domains/${id}/bimi`, {
      token: owner,
      body: { vmc_pem: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toMatchObject({ field: 'body.vmc_pem' });
    const other = addDomain(svc.seed!.teamId, 'bimi-badpem.example');
    const post = await svc.call('POST', `/domains/${other}/bimi`, {
      token: owner,
      body: { vmc_pem: 'hello' },
    });
    expect(post.status).toBe(422);
    expect((await svc.call('GET', `/domains/${other}/bimi`, { token: owner })).status).toBe(404);
  });

  it.each(BAD_LOGOS)('a %s logo is stored but reported invalid (%#)', async (_name, svg, code) => {
    const res = await svc.call('PATCH', `/domains/${id}/bimi`, { token: owner, body: { svg_content: svg } });
    expect(res.status).toBe(200);
    expect(res.body.data.logo_status).toBe('invalid');
    expect(res.body.data.svg.valid).toBe(false);
    expect(res.body.data.svg.issues.map((i: { code: string }) => i.code)).toContain(code);
  });

  it('403 for a member, 404 for another team, DELETE removes configuration and record', async () => {
    expect((await svc.call('PATCH', `/domains/${id}/bimi`, { token: member })).status).toBe(403);
    expect((await svc.call('DELETE', `/domains/${id}/bimi`, { token: member })).status).toBe(403);
    expect((await svc.call('POST', `/domains/${id}/bimi`, { token: member })).status).toBe(403);
    expect((await svc.call('GET', `/domains/${otherTeamDomain}/bimi`, { token: owner })).status).toBe(404);
    expect((await svc.call('POST', `/domains/${otherTeamDomain}/bimi`, { token: owner })).status).toBe(404);
    const del = await svc.call('DELETE', `/domains/${id}/bimi`, { token: owner });
    expect(del.body.data).toEqual({ deleted: true, id });
    expect((await svc.call('GET', `/domains/${id}/bimi`, { token: owner })).status).toBe(404);
    await expect(
      createSandboxZoneResolver(svc.db)('default.bimi-one.example.bimi.hosted.authwatch.example', 'TXT'),
    ).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect((await svc.call('DELETE', `/domains/${id}/bimi`, { token: owner })).status).toBe(404);
  });

  it('provisions with a selector', async () => {
    const sel = addDomain(svc.seed!.teamId, 'bimi-sel.example');
    const res = await svc.call('POST', `/domains/${sel}/bimi`, {
      token: owner,
      body: { selector: 'brand2', svg_content: LOGO },
    });
    expect(res.body.data).toMatchObject({
      selector: 'brand2',
      record_name: 'brand2._bimi.bimi-sel.example',
      record_value: 'v=BIMI1; l=https://bimi.hosted.authwatch.example/bimi-sel.example/brand2.svg',
    });
    const bad = await svc.call('POST', `/domains/${sel}/bimi`, {
      token: owner,
      body: { selector: 'Bad_Sel' },
    });
    expect(bad.status).toBe(422);
  });
});

describe('svg-convert', () => {
  let id: number;
  beforeAll(() => {
    id = addDomain(svc.seed!.teamId, 'bimi-svg.example');
  });

  it('accepts a proper Tiny PS file unchanged in substance', async () => {
    const res = await svc.call('POST', `/domains/${id}/bimi/svg-convert`, {
      token: reader,
      body: { svg_content: LOGO },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      valid: true,
      input_valid: true,
      profile: 'tiny-ps',
      issues: [],
      changes: [],
    });
  });

  it.each(BAD_LOGOS)('rejects a %s file and converts it into a valid one (%#)', async (_name, svg, code) => {
    const res = await svc.call('POST', `/domains/${id}/bimi/svg-convert`, {
      token: reader,
      body: { svg_content: svg },
    });
    expect(res.body.data.input_valid).toBe(false);
    const issue = res.body.data.issues.find((i: { code: string }) => i.code === code);
    expect(issue).toMatchObject({ severity: 'warning' });
    expect(res.body.data.valid).toBe(true);
    expect(res.body.data.changes.length).toBeGreaterThan(0);
    expect(res.body.data.svg_content).not.toMatch(/<script|<image|<animate/);
  });

  it('converts an ordinary SVG export, padding it to a square and adding a title', async () => {
    const res = await svc.call('POST', `/domains/${id}/bimi/svg-convert`, {
      token: reader,
      body: { svg_content: PLAIN },
    });
    expect(res.body.data.valid).toBe(true);
    expect(res.body.data.svg_content).toContain('viewBox="0 -50 200 200"');
    expect(res.body.data.svg_content).toContain('<title>Logo</title>');
    expect(res.body.data.changes).toContain('padded the viewBox to a square');
  });

  it('cannot convert what is not SVG; an empty body is a 422', async () => {
    const res = await svc.call('POST', `/domains/${id}/bimi/svg-convert`, {
      token: reader,
      body: { svg_content: '<svg><rect></svg>' },
    });
    expect(res.body.data).toMatchObject({
      valid: false,
      input_valid: false,
      svg_content: null,
      size_bytes: null,
    });
    expect(res.body.data.issues[0]).toMatchObject({ code: 'xml_malformed', severity: 'error' });
    const empty = await svc.call('POST', `/domains/${id}/bimi/svg-convert`, {
      token: reader,
      body: { svg_content: '' },
    });
    expect(empty.status).toBe(422);
    expect(
      (
        await svc.call('POST', `/domains/${otherTeamDomain}/bimi/svg-convert`, {
          token: owner,
          body: { svg_content: LOGO },
        })
      ).status,
    ).toBe(404);
  });
});

describe('VMC inspection and analysis', () => {
  it('inspects an openssl-generated chain without storing it', async () => {
    const id = addDomain(svc.seed!.teamId, 'vmc-inspect.example');
    const res = await svc.call('POST', `/domains/${id}/bimi/vmc/inspect`, {
      token: reader,
      body: { pem: await chainFor('vmc-inspect.example') },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      subject: expect.stringContaining('CN=Acme Corp'),
      issuer: expect.stringContaining('CN=Sandbox BIMI Intermediate'),
      san: ['vmc-inspect.example'],
      certificate_type: 'VMC',
      mark_type: 'Registered Mark',
      has_logotype: true,
      chain_ok: false,
    });
    expect(res.body.data.problems.join('\n')).toMatch(/not trusted by the BIMI roots/);
    expect((await svc.call('GET', `/domains/${id}/bimi`, { token: reader })).status).toBe(404);
  });

  it('says when the certificate does not cover the domain; refuses what is not a certificate', async () => {
    const id = addDomain(svc.seed!.teamId, 'vmc-other.example');
    const res = await svc.call('POST', `/domains/${id}/bimi/vmc/inspect`, {
      token: reader,
      body: { pem: await chainFor('someone-else.example') },
    });
    expect(res.body.data.problems).toContain('the certificate does not cover vmc-other.example');
    const garbage = await svc.call('POST', `/domains/${id}/bimi/vmc/inspect`, {
      token: reader,
      body: { pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
    });
    expect(garbage.status).toBe(422);
    expect(garbage.body.error.details[0].field).toBe('body.pem');
    expect(
      (await svc.call('POST', `/domains/${id}/bimi/vmc/inspect`, { token: reader, body: { pem: 'x' } }))
        .status,
    ).toBe(422);
  });

  it('analyses the certificate the published record names, caches it, and refresh bypasses the cache', async () => {
    const fqdn = 'vmc-analysis.example';
    const id = addDomain(svc.seed!.teamId, fqdn);
    let res = await svc.call('GET', `/domains/${id}/bimi/vmc`, { token: reader });
    expect(res.body.data).toMatchObject({
      domain_id: id,
      valid: false,
      certificate: null,
      bimi_record: null,
      cached: false,
    });
    expect(res.body.data.problems).toEqual([
      'no BIMI record is published at default._bimi.vmc-analysis.example',
    ]);

    await svc.call('POST', `/domains/${id}/bimi`, {
      token: owner,
      body: { svg_content: LOGO, vmc_pem: await chainFor(fqdn) },
    });
    await svc.sandbox('PUT', `/delegations/${fqdn}/bimi`, { delegated: true });
    res = await svc.call('GET', `/domains/${id}/bimi/vmc`, { token: reader });
    expect(res.body.data).toMatchObject({
      fqdn,
      valid: false,
      cached: false,
      vmc_url: 'https://bimi.hosted.authwatch.example/vmc-analysis.example/default.pem',
      certificate: { san: [fqdn], certificate_type: 'VMC', chain_ok: false },
    });
    expect(res.body.data.bimi_record).toMatch(/^v=BIMI1; l=.*; a=.*default\.pem$/);
    const analyzedAt = res.body.data.analyzed_at;
    svc.clock.advance(60_000);
    const cached = await svc.call('GET', `/domains/${id}/bimi/vmc`, { token: reader });
    expect(cached.body.data).toMatchObject({ cached: true, analyzed_at: analyzedAt });
    const refreshed = await svc.call('GET', `/domains/${id}/bimi/vmc`, {
      token: reader,
      query: { refresh: true },
    });
    expect(refreshed.body.data.cached).toBe(false);
    expect(refreshed.body.data.analyzed_at).not.toBe(analyzedAt);

    // A record pointing at a certificate elsewhere cannot be fetched from the sandbox.
    await svc.call('PATCH', `/domains/${id}/bimi`, {
      token: owner,
      body: { record_value: 'v=BIMI1; l=https://cdn.example.com/l.svg; a=https://cdn.example.com/v.pem' },
    });
    const elsewhere = await svc.call('GET', `/domains/${id}/bimi/vmc`, { token: reader });
    expect(elsewhere.body.data.cached).toBe(false);
    expect(elsewhere.body.data.problems).toEqual([
      'the certificate at https://cdn.example.com/v.pem is not hosted by the service and cannot be fetched from the sandbox',
    ]);
    expect((await svc.call('GET', `/domains/${otherTeamDomain}/bimi/vmc`, { token: owner })).status).toBe(
      404,
    );
  });
});

describe('readiness', () => {
  it('a bare domain fails every check and scores 0', async () => {
    const id = addDomain(svc.seed!.teamId, 'ready-bare.example');
    const res = await svc.call('GET', `/domains/${id}/bimi/readiness`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      domain_id: id,
      score: 0,
      ready: false,
      protocols: { dmarc: false, spf: false, mta_sts: false, tls_rpt: false, bimi: false },
    });
    expect(res.body.data.checks.map((c: { id: string; passed: boolean }) => `${c.id}:${c.passed}`)).toEqual([
      'dmarc_enforced:false',
      'spf_present:false',
      'bimi_record:false',
      'svg_valid:false',
      'vmc_valid:false',
    ]);
    expect(
      (await svc.call('GET', `/domains/${otherTeamDomain}/bimi/readiness`, { token: owner })).status,
    ).toBe(404);
  });

  it('a real VMC on a fully configured domain scores 100; DMARC at p=none costs one check', async () => {
    // The PayPal VMC chain (DigiCert, a real BIMI root) was valid from 2024-09-09 to 2025-09-08.
    const ready = await startService({ clock: createManualClock('2025-01-15T12:00:00.000Z') });
    try {
      const token = (await ready.createToken(['domains:read', 'domains:write'])).token;
      const fqdn = 'paypal.com';
      const id = insertDomain(ready, ready.seed!.teamId, fqdn);
      await ready.call('POST', `/domains/${id}/hosted-dmarc`, { token, body: { p: 'none' } });
      await ready.sandbox('PUT', `/delegations/${fqdn}/dmarc`, { delegated: true });
      await ready.sandbox('PUT', `/dns/${fqdn}/spf`, { value: 'v=spf1 ip4:192.0.2.0/24 -all' });
      const created = await ready.call('POST', `/domains/${id}/bimi`, {
        token,
        body: { svg_content: LOGO, vmc_pem: PAYPAL_VMC },
      });
      expect(created.body.data).toMatchObject({ logo_status: 'valid', vmc_status: 'valid' });
      await ready.sandbox('PUT', `/delegations/${fqdn}/bimi`, { delegated: true });

      let res = await ready.call('GET', `/domains/${id}/bimi/readiness`, { token });
      expect(res.body.data).toMatchObject({ score: 80, ready: false });
      const dmarc = res.body.data.checks.find((c: { id: string }) => c.id === 'dmarc_enforced');
      expect(dmarc).toMatchObject({ passed: false, message: 'p=none does not enforce' });

      await ready.call('PATCH', `/domains/${id}/dmarc-policy`, { token, body: { p: 'reject' } });
      res = await ready.call('GET', `/domains/${id}/bimi/readiness`, { token });
      expect(res.body.data).toMatchObject({
        score: 100,
        ready: true,
        protocols: { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: true },
      });
      expect(res.body.data.checks.every((c: { passed: boolean }) => c.passed)).toBe(true);

      const vmc = await ready.call('GET', `/domains/${id}/bimi/vmc`, { token });
      expect(vmc.body.data).toMatchObject({
        valid: true,
        problems: [],
        certificate: {
          san: ['paypal.com'],
          certificate_type: 'VMC',
          mark_type: 'Registered Mark',
          chain_ok: true,
        },
      });
      ready.expectNoContractViolations();
    } finally {
      await ready.close();
    }
  });
});
