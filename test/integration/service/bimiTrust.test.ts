// Sandbox VMC trust roots over real HTTP: a chain under a test CA is untrusted until its root is registered
// with POST /_sandbox/vmc-roots, then inspection, analysis, the configuration's vmc_status and readiness all
// see it as trusted; DELETE forgets the roots again. Only CA certificates are accepted, only with the key.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/manualClock.ts';
import { insertDomain } from '../../../test/support/ownerWorld.ts';
import { startService, stopService, type ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { CertFactory } from '../../unit/service/bimi/certFactory.ts';

const LOGO = readFileSync(new URL('../../fixtures/email-auth/logo-tiny-ps.svg', import.meta.url), 'utf8');
const FQDN = 'trusted-brand.example';

let svc: ServiceHarness;
let token: string;
let domainId: number;
let certs: CertFactory;
let root: string;
let chain: string;
let otherRoot: string;
let otherChain: string;

async function leafChain(rootName: string, domain: string): Promise<string> {
  const inter = await certs.createCa(`${rootName} Intermediate`, rootName);
  const leaf = await certs.createLeaf(`${rootName} leaf`, {
    issuer: `${rootName} Intermediate`,
    cn: 'Trusted Brand',
    sans: [domain],
    bimiEku: true,
    logoSvg: LOGO,
    markType: 'Registered Mark',
  });
  return leaf + inter;
}

async function inspect(pem: string) {
  const res = await svc.call('POST', `/domains/${domainId}/bimi/vmc/inspect`, { token, body: { pem } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { chain_ok: boolean; problems: string[] };
}

async function read(path: string) {
  const res = await svc.call('GET', `/domains/${domainId}${path}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function vmcCheck() {
  const readiness = await read('/bimi/readiness');
  return {
    score: readiness.score as number,
    ready: readiness.ready as boolean,
    vmc: readiness.checks.find((c: { id: string }) => c.id === 'vmc_valid') as { passed: boolean },
  };
}

beforeAll(async () => {
  // The generated certificates start now: judge them an hour later, not at the harness's fixed date.
  svc = await startService({ clock: createManualClock(new Date(Date.now() + 3_600_000)) });
  token = (await svc.createToken(['domains:read', 'domains:write'])).token;
  certs = await CertFactory.create();
  root = await certs.createCa('Sandbox Test Root');
  chain = await leafChain('Sandbox Test Root', FQDN);
  otherRoot = await certs.createCa('Unregistered Root');
  otherChain = await leafChain('Unregistered Root', FQDN);

  // Everything else a mailbox provider asks for is in place, so the certificate is the only open check.
  domainId = insertDomain(svc, svc.seed!.teamId, FQDN);
  const dmarc = await svc.call('POST', `/domains/${domainId}/hosted-dmarc`, { token, body: { p: 'reject' } });
  expect(dmarc.status).toBe(201);
  await svc.sandbox('PUT', `/delegations/${FQDN}/dmarc`, { delegated: true });
  await svc.sandbox('PUT', `/dns/${FQDN}/spf`, { value: 'v=spf1 ip4:192.0.2.0/24 -all' });
  const bimi = await svc.call('POST', `/domains/${domainId}/bimi`, {
    token,
    body: { svg_content: LOGO, vmc_pem: chain },
  });
  expect(bimi.status).toBe(201);
  await svc.sandbox('PUT', `/delegations/${FQDN}/bimi`, { delegated: true });
}, 60_000);

afterAll(async () => {
  await stopService(svc);
  await certs?.dispose();
});

describe('sandbox VMC trust roots', () => {
  it('a chain under a test CA is untrusted before its root is registered', async () => {
    const inspection = await inspect(chain);
    expect(inspection.chain_ok).toBe(false);
    expect(inspection.problems).toEqual([expect.stringMatching(/^not trusted by the BIMI roots: /)]);

    const analysis = await read('/bimi/vmc');
    expect(analysis).toMatchObject({ valid: false, cached: false, certificate: { chain_ok: false } });
    expect((await read('/bimi')).vmc_status).toBe('invalid');
    expect(await vmcCheck()).toMatchObject({ score: 80, ready: false, vmc: { passed: false } });
  });

  it('after POST /_sandbox/vmc-roots the chain is trusted everywhere, the cached analysis included', async () => {
    const res = await svc.sandbox('POST', '/vmc-roots', { pem: root });
    expect(res.status).toBe(201);
    const cert = new X509Certificate(root);
    expect(res.body.data).toEqual({
      fingerprint_sha256: cert.fingerprint256,
      subject: 'C=US, O=Authwatch Test, CN=Sandbox Test Root',
      valid_to: new Date(cert.validTo).toISOString(),
      added: true,
    });

    const inspection = await inspect(chain);
    expect(inspection).toMatchObject({ chain_ok: true, problems: [] });
    // The analysis cached by the previous test was judged against the old trust list: it is redone.
    expect(await read('/bimi/vmc')).toMatchObject({
      valid: true,
      cached: false,
      problems: [],
      certificate: { chain_ok: true, certificate_type: 'VMC', san: [FQDN] },
    });
    expect((await read('/bimi')).vmc_status).toBe('valid');
    expect(await vmcCheck()).toMatchObject({ score: 100, ready: true, vmc: { passed: true } });
  });

  it('registering the same root again changes nothing (200, added: false)', async () => {
    const again = await svc.sandbox('POST', '/vmc-roots', { pem: `\n${root}\n` });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      fingerprint_sha256: new X509Certificate(root).fingerprint256,
      added: false,
    });
    expect((await read('/bimi/vmc')).cached).toBe(true);
  });

  it('trusts only the registered root: a chain under another CA stays untrusted', async () => {
    const inspection = await inspect(otherChain);
    expect(inspection.chain_ok).toBe(false);
    expect(inspection.problems).toEqual([expect.stringMatching(/^not trusted by the BIMI roots: /)]);
  });

  it('refuses what is not one CA certificate with a 422 and stores nothing', async () => {
    const nonCa = chain.slice(0, chain.indexOf('-----END CERTIFICATE-----') + 25);
    const cases: [unknown, RegExp][] = [
      [{ pem: nonCa }, /not a CA certificate/],
      [{ pem: 'hello, not a certificate' }, /no -----BEGIN CERTIFICATE----- block/],
      [{ pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }, /cannot be parsed/],
      [{ pem: root + otherRoot }, /holds 2 certificates/],
    ];
    for (const [body, message] of cases) {
      const res = await svc.sandbox('POST', '/vmc-roots', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details).toEqual([
        { field: 'body.pem', message: expect.stringMatching(message) },
      ]);
    }
    for (const body of [{}, { pem: '' }, { pem: 42 }]) {
      const res = await svc.sandbox('POST', '/vmc-roots', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
    }
    // The other root of the two-certificate bundle was not trusted along the way.
    expect((await inspect(otherChain)).chain_ok).toBe(false);
  });

  it('DELETE /_sandbox/vmc-roots forgets the roots: the chain is untrusted again', async () => {
    const res = await svc.sandbox('DELETE', '/vmc-roots');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ removed: 1 });
    expect((await inspect(chain)).chain_ok).toBe(false);
    expect(await read('/bimi/vmc')).toMatchObject({ valid: false, cached: false });
    expect(await vmcCheck()).toMatchObject({ score: 80, ready: false, vmc: { passed: false } });
    expect((await svc.sandbox('DELETE', '/vmc-roots')).body.data).toEqual({ removed: 0 });
  });

  it('answers 401 without the right X-Sandbox-Key and does not exist without a sandbox key (404)', async () => {
    for (const key of [null, 'wrong-key']) {
      const post = await svc.sandbox('POST', '/vmc-roots', { pem: root }, { key });
      expect(post.status).toBe(401);
      expect(post.body.error.code).toBe('invalid_sandbox_key');
      const del = await svc.sandbox('DELETE', '/vmc-roots', undefined, { key });
      expect(del.status).toBe(401);
    }
    expect((await inspect(chain)).chain_ok).toBe(false);

    const closed = await startService({ sandboxKey: null });
    try {
      const res = await closed.sandbox('POST', '/vmc-roots', { pem: root }, { key: 'anything' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    } finally {
      await closed.close();
    }
  });
});
