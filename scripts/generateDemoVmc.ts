/**
 * Dev-time generator (not used at run time) of `acme-vmc.pem`, the demo's Verified Mark Certificate chain:
 * a leaf for acme.example (BIMI extended key usage, mark type "Registered Mark", the Acme logo embedded in an
 * RFC 3709 logotype extension) signed by a demo intermediate and a demo root, valid 2025-01-01 … 2035-01-01
 * so the demo works whatever day it is started. The demo root is not one of the BIMI roots mailbox providers
 * trust: it is also written alone to `demo-bimi-root.pem`, which the demo seed registers as a sandbox trust
 * root (POST /_sandbox/vmc-roots), so the demo service reports the chain as trusted and the VMC as valid.
 *
 *   npx tsx scripts/generateDemoVmc.ts     (needs the openssl CLI)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { logotypeExtensionDer } from './vmc/logotypeExtension.ts';

const run = promisify(execFile);
// The demo seed's assets: the logo it embeds and the PEM files it writes.
const here = fileURLToPath(new URL('../service/seed/assets/', import.meta.url));
const START = '20250101000000Z';
const END = '20350101000000Z';

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'authwatch-demo-vmc-'));
  try {
    const p = (name: string) => join(dir, name);
    await writeFile(p('index.txt'), '');
    await writeFile(p('serial'), '1000\n');
    const logo = await readFile(join(here, 'acme-logo.svg'), 'utf8');
    const logotype = logotypeExtensionDer(logo).toString('hex');
    await writeFile(
      p('openssl.cnf'),
      [
        'oid_section = new_oids',
        '[ new_oids ]',
        'markType = 1.3.6.1.4.1.53087.1.13',
        '[ req ]',
        'distinguished_name = dn',
        '[ dn ]',
        '[ ca ]',
        'default_ca = demo',
        '[ demo ]',
        `dir = ${dir}`,
        'database = $dir/index.txt',
        'serial = $dir/serial',
        'new_certs_dir = $dir',
        'default_md = sha256',
        'policy = any',
        'copy_extensions = copyall',
        'unique_subject = no',
        'preserve = yes',
        '[ any ]',
        'countryName = optional',
        'stateOrProvinceName = optional',
        'localityName = optional',
        'organizationName = optional',
        'commonName = supplied',
        'markType = optional',
        '[ ca_ext ]',
        'basicConstraints = critical,CA:TRUE',
        'keyUsage = critical,keyCertSign,cRLSign',
        '[ leaf_ext ]',
        'basicConstraints = CA:FALSE',
        'keyUsage = critical,digitalSignature',
        'extendedKeyUsage = 1.3.6.1.5.5.7.3.31',
        'subjectAltName = DNS:acme.example',
        `1.3.6.1.5.5.7.1.12 = DER:${logotype}`,
        '',
      ].join('\n'),
    );
    const cfg = ['-config', p('openssl.cnf')];
    const key = (name: string) => [
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      p(`${name}.key`),
    ];
    const sign = (csr: string, out: string, issuer: string | null, ext: string) =>
      run('openssl', [
        'ca',
        ...cfg,
        '-batch',
        '-notext',
        '-in',
        p(csr),
        '-out',
        p(out),
        ...(issuer
          ? ['-cert', p(`${issuer}.pem`), '-keyfile', p(`${issuer}.key`)]
          : ['-selfsign', '-keyfile', p('root.key')]),
        '-startdate',
        START,
        '-enddate',
        END,
        '-extensions',
        ext,
      ]);
    await run('openssl', [
      'req',
      ...cfg,
      '-new',
      ...key('root'),
      '-out',
      p('root.csr'),
      '-subj',
      '/C=US/O=Authwatch Demo/CN=Authwatch Demo BIMI Root CA',
    ]);
    await sign('root.csr', 'root.pem', null, 'ca_ext');
    await run('openssl', [
      'req',
      ...cfg,
      '-new',
      ...key('int'),
      '-out',
      p('int.csr'),
      '-subj',
      '/C=US/O=Authwatch Demo/CN=Authwatch Demo VMC Issuing CA',
    ]);
    await sign('int.csr', 'int.pem', 'root', 'ca_ext');
    await run('openssl', [
      'req',
      ...cfg,
      '-new',
      ...key('leaf'),
      '-out',
      p('leaf.csr'),
      '-subj',
      '/C=US/ST=California/L=San Francisco/O=Acme Corp/CN=Acme Corp/markType=Registered Mark',
    ]);
    await sign('leaf.csr', 'leaf.pem', 'int', 'leaf_ext');
    const chain = await Promise.all(['leaf.pem', 'int.pem', 'root.pem'].map((f) => readFile(p(f), 'utf8')));
    await writeFile(join(here, 'acme-vmc.pem'), chain.join(''));
    await writeFile(join(here, 'demo-bimi-root.pem'), chain[2]!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
