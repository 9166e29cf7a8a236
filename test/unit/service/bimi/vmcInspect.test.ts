import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectVmc, sanCovers, type VmcInspection } from '../../../../service/bimi/vmcInspect.ts';
import { CertFactory } from './certFactory.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/email-auth/${name}`, import.meta.url), 'utf8');
const LOGO = fixture('logo-tiny-ps.svg');
const HOUR = 3600_000;
const problemCodes = (r: VmcInspection) => r.chain.problems.map((p) => p.code).sort();

let f: CertFactory;
let root: string;
let inter: string;
let otherInter: string;
let good: string;
let noLogo: string;
let cmc: string;
let badHash: string;
let selfSigned: string;
let notBimi: string;
const now = () => new Date(Date.now() + HOUR);

beforeAll(async () => {
  f = await CertFactory.create();
  root = await f.createCa('Test BIMI Root');
  inter = await f.createCa('Test BIMI Intermediate', 'Test BIMI Root');
  otherInter = await f.createCa('Unrelated Intermediate', 'Test BIMI Root');
  [good, noLogo, cmc, badHash, selfSigned, notBimi] = await Promise.all([
    f.createLeaf('good', {
      issuer: 'Test BIMI Intermediate',
      cn: 'Acme Corp',
      sans: ['acme.example', '*.mail.acme.example'],
      bimiEku: true,
      logoSvg: LOGO,
      markType: 'Registered Mark',
    }),
    f.createLeaf('nologo', {
      issuer: 'Test BIMI Intermediate',
      cn: 'Acme Corp',
      sans: ['acme.example'],
      bimiEku: true,
    }),
    f.createLeaf('cmc', {
      issuer: 'Test BIMI Intermediate',
      cn: 'Beta LLC',
      sans: ['beta.example'],
      bimiEku: true,
      logoSvg: LOGO,
      markType: 'Prior Use Mark',
    }),
    f.createLeaf('badhash', {
      issuer: 'Test BIMI Intermediate',
      cn: 'Acme Corp',
      sans: ['acme.example'],
      bimiEku: true,
      logoSvg: LOGO,
      corruptLogoHash: true,
    }),
    f.createLeaf('self', {
      issuer: 'self',
      cn: 'Self Signed',
      sans: ['acme.example'],
      bimiEku: true,
      logoSvg: LOGO,
    }),
    f.createLeaf('tls', {
      issuer: 'Test BIMI Intermediate',
      cn: 'www.acme.example',
      sans: ['www.acme.example'],
      logoSvg: LOGO,
    }),
  ]);
}, 60_000);

afterAll(async () => {
  await f?.dispose();
});

describe('inspectVmc with generated certificates', () => {
  it('accepts a complete VMC chain under a trusted root, extracting subject, SANs and the logo', async () => {
    const r = await inspectVmc(good + inter, { now: now(), domain: 'acme.example', extraRoots: [root] });
    expect(r.chain).toEqual({ problems: [], trusted: true, validation_error: null });
    expect(r.valid).toBe(true);
    expect(r.certificates).toHaveLength(2);
    const leaf = r.certificates[0]!;
    expect(leaf).toMatchObject({
      is_ca: false,
      self_signed: false,
      expired: false,
      not_yet_valid: false,
      san_dns: ['acme.example', '*.mail.acme.example'],
    });
    expect(leaf.subject).toBe('C=US, O=Acme Corp, CN=Acme Corp, 1.3.6.1.4.1.53087.1.13=Registered Mark');
    expect(leaf.subject_fields).toMatchObject({ commonName: 'Acme Corp', markType: 'Registered Mark' });
    expect(leaf.issuer).toBe('C=US, O=Authwatch Test, CN=Test BIMI Intermediate');
    expect(leaf.serial_number).toMatch(/^[0-9A-F]+$/);
    expect(Date.parse(leaf.valid_to) - Date.parse(leaf.valid_from)).toBe(365 * 24 * HOUR);
    expect(r.leaf).toMatchObject({
      kind: 'VMC',
      has_bimi_eku: true,
      mark_type: 'Registered Mark',
      has_logotype: true,
      logotype_error: null,
    });
    expect(r.leaf?.logo).toMatchObject({
      media_type: 'image/svg+xml',
      hash_algorithm: 'sha256',
      hash_valid: true,
      svg: LOGO,
    });
    expect(r.leaf?.logo?.svg_check).toMatchObject({ valid: true, title: 'Example & Sons' });
    expect(r.domain).toEqual({ name: 'acme.example', covered: true, matched_name: 'acme.example' });
  });

  it('is untrusted without the test root, but otherwise intact', async () => {
    const r = await inspectVmc(good + inter + root, { now: now() });
    expect(r.chain.problems).toEqual([]);
    expect(r.chain.trusted).toBe(false);
    expect(r.chain.validation_error?.code).toBe('SELF_SIGNED_CERT_IN_CHAIN');
    expect(r.valid).toBe(false);
  });

  it('reports expiry and not-yet-valid against the injected clock', async () => {
    const later = await inspectVmc(good + inter, {
      now: new Date(Date.now() + 400 * 24 * HOUR),
      extraRoots: [root],
    });
    expect(problemCodes(later)).toEqual(['expired']);
    expect(later.certificates[0]?.expired).toBe(true);
    expect(later.chain.validation_error?.code).toBe('CERTIFICATE_VERIFICATION_ERROR');
    expect(later.valid).toBe(false);
    const earlier = await inspectVmc(good + inter, {
      now: new Date(Date.now() - 24 * HOUR),
      extraRoots: [root],
    });
    expect(problemCodes(earlier)).toEqual(['not_yet_valid', 'not_yet_valid']);
  });

  it('detects a chain whose next certificate is not the issuer', async () => {
    const r = await inspectVmc(good + otherInter, { now: now(), extraRoots: [root] });
    expect(problemCodes(r)).toEqual(['issuer_mismatch']);
    expect(r.chain.problems[0]?.message).toMatch(/Test BIMI Intermediate.*Unrelated Intermediate/);
    expect(r.chain.trusted).toBe(false);
    expect(r.chain.validation_error?.code).toBe('INVALID_CHAIN');
  });

  it('detects a signature that does not verify although the names match', async () => {
    // A second CA with the same name as the real issuer but another key.
    const f2 = await CertFactory.create();
    try {
      await f2.createCa('Test BIMI Root');
      const impostor = await f2.createCa('Test BIMI Intermediate', 'Test BIMI Root');
      const r = await inspectVmc(good + impostor, { now: now(), extraRoots: [root] });
      expect(problemCodes(r)).toEqual(['bad_signature']);
    } finally {
      await f2.dispose();
    }
  });

  it('flags a leaf without the logotype extension', async () => {
    const r = await inspectVmc(noLogo + inter, { now: now(), extraRoots: [root], domain: 'acme.example' });
    expect(r.leaf).toMatchObject({ has_logotype: false, logo: null, kind: 'VMC' });
    expect(r.leaf?.logotype_error).toMatch(/no logotype extension/);
    expect(r.chain.validation_error?.code).toBe('INVALID_LOGOTYPE_EXT');
    expect(r.valid).toBe(false);
  });

  it('flags a logo that does not match the hash in the certificate', async () => {
    const r = await inspectVmc(badHash + inter, { now: now(), extraRoots: [root] });
    expect(r.leaf?.logo).toMatchObject({ hash_valid: false, svg: LOGO });
    expect(r.valid).toBe(false);
  });

  it('tells a CMC from a VMC by mark type, and a non-BIMI certificate by its usage', async () => {
    expect((await inspectVmc(cmc + inter, { now: now(), extraRoots: [root] })).leaf).toMatchObject({
      kind: 'CMC',
      mark_type: 'Prior Use Mark',
    });
    const tls = await inspectVmc(notBimi + inter, { now: now(), extraRoots: [root] });
    expect(tls.leaf).toMatchObject({ kind: null, has_bimi_eku: false });
    expect(tls.chain.validation_error?.code).toBe('BIMI_EXT_KEY_MISSING');
    expect(tls.valid).toBe(false);
  });

  it('reports domains the SANs do not cover', async () => {
    const other = await inspectVmc(good + inter, { now: now(), extraRoots: [root], domain: 'other.example' });
    expect(other.domain).toEqual({ name: 'other.example', covered: false, matched_name: null });
    expect(other.valid).toBe(false);
    const sub = await inspectVmc(good + inter, {
      now: now(),
      extraRoots: [root],
      domain: 'eu.mail.acme.example',
    });
    expect(sub.domain).toMatchObject({ covered: true, matched_name: '*.mail.acme.example' });
    expect(
      (await inspectVmc(good + inter, { now: now(), domain: 'a.b.mail.acme.example' })).domain?.covered,
    ).toBe(false);
  });

  it('flags a self-signed leaf and a leaf without its chain', async () => {
    expect(problemCodes(await inspectVmc(selfSigned, { now: now() }))).toEqual(['self_signed_leaf']);
    expect(problemCodes(await inspectVmc(good, { now: now(), extraRoots: [root] }))).toEqual(['no_chain']);
  });

  it('warns when a private key is pasted along with the certificates', async () => {
    const r = await inspectVmc(good + (await f.key('good')) + inter, { now: now(), extraRoots: [root] });
    expect(r.ok).toBe(true);
    expect(r.certificates).toHaveLength(2);
    expect(r.warnings.join()).toMatch(/private key/);
  });
});

describe('inspectVmc with a real VMC', () => {
  const paypal = fixture('paypal_vmc.pem');

  it('validates the PayPal chain against the BIMI roots while it was valid', async () => {
    const r = await inspectVmc(paypal, { now: new Date('2024-11-05T06:50:13Z'), domain: 'paypal.com' });
    expect(r.valid).toBe(true);
    expect(r.leaf).toMatchObject({ kind: 'VMC', mark_type: 'Registered Mark', has_logotype: true });
    expect(r.leaf?.logo?.hash_valid).toBe(true);
    expect(r.leaf?.logo?.svg).toMatch(/<svg/);
    expect(r.certificates[0]?.subject_fields.organizationName).toBe('PayPal, Inc.');
    expect(r.domain?.covered).toBe(true);
  });

  it('reports it expired once September 2025 has passed', async () => {
    const r = await inspectVmc(paypal, { now: new Date('2026-01-01T00:00:00Z') });
    expect(problemCodes(r)).toContain('expired');
    expect(r.valid).toBe(false);
  });
});

describe('inspectVmc with bad input', () => {
  it.each([
    ['', 'empty'],
    ['just some text', 'no_certificate'],
    [
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n',
      'invalid_certificate',
    ],
    ['-----BEGIN CERTIFICATE-----\n!!!garbage!!!\n-----END CERTIFICATE-----', 'invalid_certificate'],
    ['x'.repeat(1024 * 1024 + 1), 'too_large'],
  ])('returns an error result instead of throwing (%#)', async (pem, code) => {
    const r = await inspectVmc(pem, { now: new Date() });
    expect(r.ok).toBe(false);
    expect(r.valid).toBe(false);
    expect(r.error?.code).toBe(code);
  });

  it('survives non-string input from an untyped caller', async () => {
    expect((await inspectVmc(42 as unknown as string, { now: new Date() })).error?.code).toBe('empty');
  });
});

describe('sanCovers', () => {
  it('matches exact names and single-label wildcards only', () => {
    expect(sanCovers('Example.com', 'example.com.')).toBe(true);
    expect(sanCovers('*.example.com', 'mail.example.com')).toBe(true);
    expect(sanCovers('*.example.com', 'example.com')).toBe(false);
    expect(sanCovers('*.example.com', 'a.b.example.com')).toBe(false);
  });
});
