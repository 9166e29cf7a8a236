import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/** Extra authorities that cannot be used, naming the file and why. */
export class ExtraCaError extends Error {
  override readonly name = 'ExtraCaError';
}

/** The certificates of a PEM file, each checked to be one. */
export function readCaFile(path: string, from: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExtraCaError(
      `The CA file ${path} (${from}) could not be read${code === 'ENOENT' ? ': there is no such file' : code ? ` (${code})` : ''}.`,
    );
  }
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (pems.length === 0)
    throw new ExtraCaError(
      `The CA file ${path} (${from}) holds no PEM certificate (-----BEGIN CERTIFICATE-----).`,
    );
  for (const pem of pems) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ExtraCaError(`The CA file ${path} (${from}) holds a certificate that cannot be read.`);
    }
  }
  return pems;
}

/**
 * What TLS connections trust: Node's built-in authorities, NODE_EXTRA_CA_CERTS (a `ca` list replaces the
 * default store, so it is read here again) and the extra files; undefined when nothing is added.
 */
export function trustedAuthorities(
  files: readonly { path: string; from: string }[],
  env: NodeJS.ProcessEnv,
): string[] | undefined {
  if (files.length === 0) return undefined;
  const extra = files.flatMap((f) => readCaFile(f.path, f.from));
  const nodeExtra = env.NODE_EXTRA_CA_CERTS ? safeRead(env.NODE_EXTRA_CA_CERTS) : [];
  return [...rootCertificates, ...nodeExtra, ...extra];
}

function safeRead(path: string): string[] {
  try {
    return readCaFile(path, 'NODE_EXTRA_CA_CERTS');
  } catch {
    return []; // Node itself warned about it at start.
  }
}
