/**
 * Generates X.509 test certificates with the openssl CLI: a root and intermediate CA, and BIMI leaf certificates
 * with SANs, the BIMI extended key usage and an RFC 3709 logotype extension carrying a gzipped SVG.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { logotypeExtensionDer } from '../../../../scripts/vmc/logotypeExtension.ts';

const run = promisify(execFile);

export interface LeafOptions {
  /** Signing CA name (from createCa) or 'self' for a self-signed leaf. */
  issuer: string;
  cn: string;
  sans?: string[];
  bimiEku?: boolean;
  logoSvg?: string;
  corruptLogoHash?: boolean;
  markType?: string;
  days?: number;
}

/** A scratch directory holding keys and certificates for one test file. */
export class CertFactory {
  private constructor(readonly dir: string) {}

  static async create(): Promise<CertFactory> {
    const dir = await mkdtemp(join(tmpdir(), 'authwatch-vmc-'));
    // openssl drops subject attributes it has no name for, so name the BIMI mark-type OID.
    await writeFile(
      join(dir, 'openssl.cnf'),
      'oid_section = new_oids\n[ new_oids ]\nmarkType = 1.3.6.1.4.1.53087.1.13\n[ req ]\ndistinguished_name = dn\n[ dn ]\n',
    );
    return new CertFactory(dir);
  }

  private get config(): string[] {
    return ['-config', join(this.dir, 'openssl.cnf')];
  }

  private path(name: string, ext: string): string {
    return join(this.dir, `${name}.${ext}`);
  }

  /** A CA certificate: self-signed root, or signed by `parent`. Returns its PEM. */
  async createCa(name: string, parent?: string): Promise<string> {
    const key = this.path(name, 'key');
    const cert = this.path(name, 'pem');
    const subj = `/C=US/O=Authwatch Test/CN=${name}`;
    const ca = [
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ];
    if (!parent) {
      await run('openssl', [
        'req',
        ...this.config,
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '3650',
        '-subj',
        subj,
        ...ca,
      ]);
    } else {
      const csr = this.path(name, 'csr');
      await run('openssl', [
        'req',
        ...this.config,
        '-new',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        key,
        '-out',
        csr,
        '-subj',
        subj,
        ...ca,
      ]);
      await this.sign(csr, cert, parent, 3650);
    }
    return readFile(cert, 'utf8');
  }

  private async sign(csr: string, cert: string, issuer: string, days: number): Promise<void> {
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      csr,
      '-out',
      cert,
      '-days',
      String(days),
      '-CA',
      this.path(issuer, 'pem'),
      '-CAkey',
      this.path(issuer, 'key'),
      '-set_serial',
      `0x${Date.now().toString(16)}${Math.floor(Math.random() * 1e6).toString(16)}`,
      '-copy_extensions',
      'copyall',
    ]);
  }

  /** A leaf certificate with the requested BIMI features. Returns its PEM. */
  async createLeaf(name: string, options: LeafOptions): Promise<string> {
    const key = this.path(name, 'key');
    const cert = this.path(name, 'pem');
    const subjParts = [`/C=US/O=${options.cn}/CN=${options.cn}`];
    if (options.markType) subjParts.push(`/markType=${options.markType}`);
    const ext: string[] = [];
    if (options.sans?.length)
      ext.push('-addext', `subjectAltName=${options.sans.map((s) => `DNS:${s}`).join(',')}`);
    if (options.bimiEku) ext.push('-addext', 'extendedKeyUsage=1.3.6.1.5.5.7.3.31');
    if (options.logoSvg !== undefined) {
      const der = logotypeExtensionDer(options.logoSvg, { corruptHash: options.corruptLogoHash });
      ext.push('-addext', `1.3.6.1.5.5.7.1.12=DER:${der.toString('hex')}`);
    }
    const days = String(options.days ?? 365);
    const keygen = [
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-subj',
      subjParts.join(''),
    ];
    if (options.issuer === 'self') {
      await run('openssl', ['req', ...this.config, '-x509', ...keygen, '-out', cert, '-days', days, ...ext]);
    } else {
      const csr = this.path(name, 'csr');
      await run('openssl', ['req', ...this.config, '-new', ...keygen, '-out', csr, ...ext]);
      await this.sign(csr, cert, options.issuer, Number(days));
    }
    return readFile(cert, 'utf8');
  }

  /** The private key PEM of a generated certificate (to test that bundles with keys are flagged). */
  async key(name: string): Promise<string> {
    return readFile(this.path(name, 'key'), 'utf8');
  }

  async writeFile(name: string, content: string): Promise<void> {
    await writeFile(join(this.dir, name), content);
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
