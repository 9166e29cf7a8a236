/**
 * POST /_sandbox/vmc-roots {pem} — trusts a test CA for the VMC checks, like adding a test CA to a trust store:
 * certificates chaining to it are judged trusted by inspection, analysis and readiness (idempotent by SHA-256
 * fingerprint: 201 when added, 200 when it was already there). DELETE /_sandbox/vmc-roots — forgets them all.
 * The real BIMI roots stay trusted either way; without a sandbox key these controls do not exist.
 */
import { X509Certificate } from 'node:crypto';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError } from '../http/serviceError.ts';
import { addVmcTrustRoot, clearVmcTrustRoots } from '../bimi/vmcTrustRoots.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
/** A CA certificate is a few KB; anything far bigger is not one. */
const MAX_PEM_CHARS = 64 * 1024;

/** What POST answers: the root as stored, and whether this call added it. */
export interface RegisteredVmcRoot {
  fingerprint_sha256: string;
  subject: string;
  valid_to: string;
  added: boolean;
}

function refuse(message: string): never {
  throw validationError([{ field: 'body.pem', message }], 'The PEM is not a CA certificate.');
}

/** Validates `pem` (one CA certificate) and stores it as a VMC trust root; a 422 ServiceError otherwise. */
export function registerVmcRoot(db: ServiceDb, pem: string, now: Date): RegisteredVmcRoot {
  const blocks = pem.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length !== 1) {
    refuse(
      blocks.length === 0
        ? 'no -----BEGIN CERTIFICATE----- block was found'
        : `holds ${blocks.length} certificates; give the root alone`,
    );
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(blocks[0]);
  } catch (err) {
    refuse(`the certificate cannot be parsed: ${(err as Error).message}`);
  }
  if (!cert.ca) refuse('the certificate is not a CA certificate (basicConstraints CA:TRUE is missing)');
  const root = {
    fingerprint_sha256: cert.fingerprint256,
    subject: cert.subject.split('\n').join(', '),
    pem: `${blocks[0]}\n`,
  };
  const added = addVmcTrustRoot(db, root, now);
  return {
    fingerprint_sha256: root.fingerprint_sha256,
    subject: root.subject,
    valid_to: new Date(cert.validTo).toISOString(),
    added,
  };
}

export const routes: SandboxRoute[] = [
  {
    method: 'POST',
    path: '/vmc-roots',
    body: {
      type: 'object',
      required: ['pem'],
      additionalProperties: false,
      properties: { pem: { type: 'string', minLength: 1, maxLength: MAX_PEM_CHARS } },
    },
    handler: (req, ctx) => {
      const root = registerVmcRoot(ctx.db, req.body.pem as string, ctx.clock());
      return { status: root.added ? 201 : 200, data: root };
    },
  },
  {
    method: 'DELETE',
    path: '/vmc-roots',
    handler: (_req, ctx) => ({ data: { removed: clearVmcTrustRoots(ctx.db) } }),
  },
];
