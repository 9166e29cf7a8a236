/**
 * The reference world's test certificate authority: one P-256 root made when the service starts (its PEM is
 * written where `--ca-file` says, for the app's `--ca-file` / AUTHWATCH_EXTRA_CA), and leaf certificates it
 * issues on demand for the names the HTTPS and SMTP servers are asked for — with the lifetimes and names the
 * sandbox sets, so an expiring or mismatched certificate is a real one a real TLS client refuses.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { bits, boolTrue, explicit, integer, octets, oid, seq, set, time, tlv, utf8 } from './der.ts';

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
const DAY = 86_400_000;

/** A certificate and its key, PEM. */
export interface IssuedCertificate {
  cert: string;
  key: string;
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

function name(commonName: string): Buffer {
  return seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
}

function extension(id: string, value: Buffer, critical = false): Buffer {
  return seq(oid(id), ...(critical ? [boolTrue()] : []), octets(value));
}

interface CertificateParts {
  subject: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  signer: KeyObject;
  extensions: Buffer[];
}

function certificate(p: CertificateParts): Buffer {
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    ECDSA_SHA256,
    name(p.issuer),
    seq(time(p.notBefore), time(p.notAfter)),
    name(p.subject),
    p.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...p.extensions)),
  );
  return seq(tbs, ECDSA_SHA256, bits(sign('sha256', tbs, p.signer)));
}

/** The test CA: its root's PEM, and leaves it issues. */
export interface TestCa {
  /** The root certificate (PEM): what the app must trust. */
  readonly rootPem: string;
  /**
   * A leaf for `names` (subjectAltName dNSName), valid from yesterday until `notAfter`: a TLS server's, or
   * with `usage` another extended key usage and extra extensions (a VMC's BIMI usage and logotype).
   */
  issue(
    names: readonly string[],
    notAfter: Date,
    now?: Date,
    usage?: { extKeyUsage: string; extensions: readonly { id: string; der: Buffer }[] },
  ): IssuedCertificate;
}

/** Makes a new root (valid ten years from yesterday). */
export function createTestCa(commonName = 'Authwatch reference world test CA', now = new Date()): TestCa {
  const root = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const rootDer = certificate({
    subject: commonName,
    issuer: commonName,
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + 3650 * DAY),
    publicKey: root.publicKey,
    signer: root.privateKey,
    extensions: [
      extension('2.5.29.19', seq(boolTrue()), true), // basicConstraints: CA
      extension('2.5.29.15', bits(Buffer.from([0x06])), true), // keyUsage: keyCertSign, cRLSign
    ],
  });
  return {
    rootPem: pem('CERTIFICATE', rootDer),
    issue(names, notAfter, at = new Date(), usage) {
      const leaf = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const der = certificate({
        subject: names[0] ?? 'localhost',
        issuer: commonName,
        notBefore: new Date(Math.min(at.getTime() - DAY, notAfter.getTime() - DAY)),
        notAfter,
        publicKey: leaf.publicKey,
        signer: root.privateKey,
        extensions: [
          extension('2.5.29.17', seq(...names.map((n) => tlv(0x82, Buffer.from(n, 'ascii'))))),
          extension('2.5.29.15', bits(Buffer.from([0x80])), true), // keyUsage: digitalSignature
          // extKeyUsage: serverAuth, unless told another
          extension('2.5.29.37', seq(oid(usage?.extKeyUsage ?? '1.3.6.1.5.5.7.3.1'))),
          ...(usage?.extensions ?? []).map((e) => extension(e.id, e.der)),
        ],
      });
      const key = createPrivateKey(leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }));
      return { cert: pem('CERTIFICATE', der), key: key.export({ type: 'pkcs8', format: 'pem' }) as string };
    },
  };
}
