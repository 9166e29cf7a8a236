/**
 * Inspection of a BIMI Verified Mark / Common Mark Certificate bundle (PEM) for the vmc and vmc/inspect endpoints:
 * certificate details, the embedded logo, chain problems, trust against the BIMI roots and domain coverage.
 * Node-only (node:crypto, @postalsys/vmc). Never throws: bad input comes back as an error result.
 */
import { X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import { checkBimiSvg, type BimiSvgCheck } from '../../shared/email-auth/bimiSvg.ts';

/** The BIMI extended key usage (id-kp-BrandIndicatorforMessageIdentification). */
export const BIMI_EKU_OID = '1.3.6.1.5.5.7.3.31';
/** The RFC 3709 logotype extension that carries the mark. */
export const LOGOTYPE_OID = '1.3.6.1.5.5.7.1.12';
/** Mark types that make a BIMI certificate a CMC rather than a VMC. */
const CMC_MARK_TYPES = new Set(['Prior Use Mark', 'Modified Registered Mark']);
/** Input bigger than this is refused before parsing; real bundles are ~10 KB. */
export const VMC_MAX_PEM_BYTES = 1024 * 1024;
const MAX_CERTIFICATES = 10;

// @postalsys/vmc is CommonJS without types; its ASN.1 dependencies are loaded from its own tree so the
// versions match the ones it was built against.
const require = createRequire(import.meta.url);
const vmcRequire = createRequire(require.resolve('@postalsys/vmc'));
interface VmcError extends Error {
  code?: string;
}
const vmcLib = require('@postalsys/vmc') as {
  vmc: (pem: string, options: { now?: Date; rootStore?: unknown }) => Promise<unknown>;
  RootStore: { create: () => { addCert: (pem: string) => boolean } };
};
const { parseVMC } = require('@postalsys/vmc/lib/parse-vmc') as {
  parseVMC: (der: Buffer) => Promise<{
    mediaType?: string;
    hashAlgo?: string;
    logoFile?: Buffer;
    validHash?: boolean;
  }>;
};
const { parseSubject } = require('@postalsys/vmc/lib/tools') as {
  parseSubject: (s: string) => Record<string, string>;
};
const { AsnParser } = vmcRequire('@peculiar/asn1-schema') as {
  AsnParser: { parse: <T>(data: Uint8Array, type: new () => T) => T };
};
const { Certificate } = vmcRequire('@peculiar/asn1-x509') as {
  Certificate: new () => { tbsCertificate: { extensions?: { extnID: string }[] } };
};

export interface VmcCertificateInfo {
  index: number;
  /** Distinguished name, one attribute per comma, as node prints it. */
  subject: string;
  /** Subject attributes by name (commonName, organizationName, markType, trademarkRegistration, ...). */
  subject_fields: Record<string, string>;
  issuer: string;
  serial_number: string;
  fingerprint_sha256: string;
  valid_from: string;
  valid_to: string;
  expired: boolean;
  not_yet_valid: boolean;
  is_ca: boolean;
  self_signed: boolean;
  san_dns: string[];
  extended_key_usage: string[];
  extension_oids: string[];
}

export type VmcChainProblemCode =
  | 'no_chain'
  | 'self_signed_leaf'
  | 'issuer_mismatch'
  | 'bad_signature'
  | 'not_ca'
  | 'expired'
  | 'not_yet_valid';

export interface VmcInspection {
  /** False when the input held no readable certificate; `error` says why. */
  ok: boolean;
  error: {
    code: 'empty' | 'too_large' | 'no_certificate' | 'invalid_certificate' | 'too_many_certificates';
    message: string;
  } | null;
  /** Everything checks out: chain, trust, BIMI usage, logo, dates and (when asked) the domain. */
  valid: boolean;
  certificates: VmcCertificateInfo[];
  leaf: {
    /** VMC or CMC for certificates with the BIMI usage, null otherwise. */
    kind: 'VMC' | 'CMC' | null;
    has_bimi_eku: boolean;
    mark_type: string | null;
    has_logotype: boolean;
    logo: {
      media_type: string | null;
      hash_algorithm: string | null;
      /** Whether the embedded logo matches the hash in the certificate (null when there is none to compare). */
      hash_valid: boolean | null;
      svg: string | null;
      svg_check: BimiSvgCheck | null;
    } | null;
    logotype_error: string | null;
  } | null;
  chain: {
    problems: { code: VmcChainProblemCode; message: string; index: number }[];
    /** Validated by @postalsys/vmc up to a BIMI root (built-in roots plus any extra roots given). */
    trusted: boolean;
    validation_error: { code: string; message: string } | null;
  };
  domain: { name: string; covered: boolean; matched_name: string | null } | null;
  warnings: string[];
}

export interface VmcInspectOptions {
  /** The instant validity is judged at (injected for tests and reproducible answers). */
  now: Date;
  /** Domain whose coverage by the certificate's SANs is checked. */
  domain?: string;
  /** Extra trusted root PEMs on top of the BIMI roots shipped with @postalsys/vmc. */
  extraRoots?: string[];
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

function failure(
  code: NonNullable<VmcInspection['error']>['code'],
  message: string,
  warnings: string[] = [],
): VmcInspection {
  return {
    ok: false,
    error: { code, message },
    valid: false,
    certificates: [],
    leaf: null,
    chain: { problems: [], trusted: false, validation_error: null },
    domain: null,
    warnings,
  };
}

function sanDnsNames(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).toLowerCase());
}

function extensionOids(cert: X509Certificate): string[] {
  try {
    return (AsnParser.parse(cert.raw, Certificate).tbsCertificate.extensions ?? []).map((e) => e.extnID);
  } catch {
    return [];
  }
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

function describe(cert: X509Certificate, index: number, now: Date): VmcCertificateInfo {
  const validFrom = new Date(cert.validFrom);
  const validTo = new Date(cert.validTo);
  return {
    index,
    subject: cert.subject.split('\n').join(', '),
    subject_fields: parseSubject(cert.subject),
    issuer: cert.issuer.split('\n').join(', '),
    serial_number: cert.serialNumber,
    fingerprint_sha256: cert.fingerprint256,
    valid_from: validFrom.toISOString(),
    valid_to: validTo.toISOString(),
    expired: now > validTo,
    not_yet_valid: now < validFrom,
    is_ca: cert.ca,
    self_signed: cert.subject === cert.issuer && signedBy(cert, cert),
    san_dns: sanDnsNames(cert),
    extended_key_usage: cert.keyUsage ?? [],
    extension_oids: extensionOids(cert),
  };
}

/** True when SAN `name` covers `domain`: equal, or a `*.` wildcard matching exactly one leftmost label. */
export function sanCovers(name: string, domain: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, '');
  const d = domain.trim().toLowerCase().replace(/\.$/, '');
  if (!n.startsWith('*.')) return n === d;
  const dot = d.indexOf('.');
  return dot > 0 && d.slice(dot + 1) === n.slice(2);
}

async function inspectLogo(
  cert: X509Certificate,
  hasLogotype: boolean,
): Promise<Pick<NonNullable<VmcInspection['leaf']>, 'logo' | 'logotype_error'>> {
  if (!hasLogotype)
    return { logo: null, logotype_error: 'the certificate has no logotype extension, so it carries no logo' };
  try {
    const parsed = await parseVMC(cert.raw);
    const svg = parsed.logoFile ? parsed.logoFile.toString('utf8') : null;
    return {
      logo: {
        media_type: parsed.mediaType ?? null,
        hash_algorithm: parsed.hashAlgo ?? null,
        hash_valid: parsed.validHash ?? null,
        svg,
        svg_check: svg !== null ? checkBimiSvg(svg) : null,
      },
      logotype_error: null,
    };
  } catch (err) {
    return {
      logo: null,
      logotype_error: `the logotype extension could not be read: ${(err as Error).message}`,
    };
  }
}

async function trustCheck(
  pems: string[],
  options: VmcInspectOptions,
): Promise<{ trusted: boolean; validation_error: { code: string; message: string } | null }> {
  try {
    const rootStore = vmcLib.RootStore.create();
    for (const root of options.extraRoots ?? []) rootStore.addCert(root);
    await vmcLib.vmc(pems.join(''), { now: options.now, rootStore });
    return { trusted: true, validation_error: null };
  } catch (err) {
    const e = err as VmcError;
    return { trusted: false, validation_error: { code: e.code ?? 'VALIDATION_ERROR', message: e.message } };
  }
}

/** Inspects a PEM bundle (leaf first, then intermediates); never throws. */
export async function inspectVmc(pem: string, options: VmcInspectOptions): Promise<VmcInspection> {
  if (typeof pem !== 'string' || pem.trim() === '') return failure('empty', 'no PEM text was given');
  if (Buffer.byteLength(pem) > VMC_MAX_PEM_BYTES) return failure('too_large', 'the PEM is larger than 1 MB');
  const warnings: string[] = [];
  const pems: string[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    if (m[1] === 'CERTIFICATE') pems.push(`${m[0]}\n`);
    else if (m[1]?.includes('PRIVATE KEY'))
      warnings.push('the bundle contains a private key; never publish it, and replace that key');
    else warnings.push(`ignored a PEM block of type ${m[1]}`);
  }
  if (pems.length === 0)
    return failure('no_certificate', 'no -----BEGIN CERTIFICATE----- block was found', warnings);
  if (pems.length > MAX_CERTIFICATES) {
    return failure(
      'too_many_certificates',
      `the bundle has ${pems.length} certificates; at most ${MAX_CERTIFICATES} are read`,
      warnings,
    );
  }
  const certs: X509Certificate[] = [];
  for (const [i, block] of pems.entries()) {
    try {
      certs.push(new X509Certificate(block));
    } catch (err) {
      return failure(
        'invalid_certificate',
        `certificate ${i + 1} cannot be parsed: ${(err as Error).message}`,
        warnings,
      );
    }
  }

  const now = options.now;
  const infos = certs.map((c, i) => describe(c, i, now));
  const problems: VmcInspection['chain']['problems'] = [];
  const leafCert = certs[0]!;
  const leafInfo = infos[0]!;
  if (leafInfo.self_signed)
    problems.push({
      code: 'self_signed_leaf',
      message: 'the certificate is self-signed; no BIMI issuer vouches for it',
      index: 0,
    });
  else if (certs.length === 1) {
    problems.push({
      code: 'no_chain',
      message: 'only the leaf certificate was given; include the intermediate certificates',
      index: 0,
    });
  }
  infos.forEach((info, i) => {
    if (info.expired)
      problems.push({
        code: 'expired',
        message: `certificate ${i + 1} expired on ${info.valid_to}`,
        index: i,
      });
    if (info.not_yet_valid)
      problems.push({
        code: 'not_yet_valid',
        message: `certificate ${i + 1} is valid only from ${info.valid_from}`,
        index: i,
      });
    if (i > 0 && !info.is_ca)
      problems.push({
        code: 'not_ca',
        message: `certificate ${i + 1} is not a CA but is used as an issuer`,
        index: i,
      });
  });
  for (let i = 0; i + 1 < certs.length; i++) {
    if (certs[i]!.issuer !== certs[i + 1]!.subject) {
      problems.push({
        code: 'issuer_mismatch',
        message: `certificate ${i + 1} was issued by "${infos[i]!.issuer}", but certificate ${i + 2} is "${infos[i + 1]!.subject}"`,
        index: i,
      });
    } else if (!signedBy(certs[i]!, certs[i + 1]!)) {
      problems.push({
        code: 'bad_signature',
        message: `certificate ${i + 1}'s signature does not verify with certificate ${i + 2}'s key`,
        index: i,
      });
    }
  }

  const hasEku = leafInfo.extended_key_usage.includes(BIMI_EKU_OID);
  const markType = leafInfo.subject_fields.markType ?? null;
  const hasLogotype = leafInfo.extension_oids.includes(LOGOTYPE_OID);
  const logo = await inspectLogo(leafCert, hasLogotype);
  const trust = await trustCheck(pems, options);
  const domain = options.domain?.trim()
    ? (() => {
        const name = options.domain.trim().toLowerCase().replace(/\.$/, '');
        const matched = leafInfo.san_dns.find((san) => sanCovers(san, name)) ?? null;
        return { name, covered: matched !== null, matched_name: matched };
      })()
    : null;

  const valid =
    problems.length === 0 &&
    trust.trusted &&
    hasEku &&
    hasLogotype &&
    logo.logo !== null &&
    logo.logo.hash_valid !== false &&
    (domain === null || domain.covered);
  return {
    ok: true,
    error: null,
    valid,
    certificates: infos,
    leaf: {
      kind: hasEku ? (markType && CMC_MARK_TYPES.has(markType) ? 'CMC' : 'VMC') : null,
      has_bimi_eku: hasEku,
      mark_type: markType,
      has_logotype: hasLogotype,
      ...logo,
    },
    chain: { problems, ...trust },
    domain,
    warnings,
  };
}
