/**
 * What a TLS peer showed, in the shape the live checks store and the Checks tab shows: the leaf's subject,
 * issuer, names and notAfter, days left, whether it validates for the name asked (chain to a trusted
 * authority, dates, name — what a sending MTA under MTA-STS checks), and the chain as sent.
 */
import type { DetailedPeerCertificate, PeerCertificate, TLSSocket } from 'node:tls';
import { z } from 'zod';

export const certificateSeenSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  notAfter: z.string(),
  /** Whole days from the check until notAfter (negative once expired). */
  daysLeft: z.number(),
  names: z.array(z.string()),
  /** Valid for the name asked, chained to a trusted authority, within its dates. */
  valid: z.boolean(),
  /** Why not, in words; null when valid. */
  problem: z.string().nullable(),
  chain: z.array(z.object({ subject: z.string(), issuer: z.string(), notAfter: z.string() })),
});
export type CertificateSeen = z.infer<typeof certificateSeenSchema>;

/** Node's verification codes, in words (the rest are shown as they are). */
const PROBLEM_WORDS: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is not for this name',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the chain ends in an authority that is not trusted here',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is from an authority that is not trusted here',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the chain cannot be verified (an intermediate is missing?)',
};

function dn(part: PeerCertificate['subject'] | undefined): string {
  if (!part) return '';
  return Object.entries(part)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(', ');
}

/** The certificate a connected TLS socket was shown, judged for `name` at `now` (null: none shown). */
export function certificateSeen(socket: TLSSocket, name: string, now: number): CertificateSeen | null {
  const leaf = socket.getPeerCertificate(true);
  if (!leaf || Object.keys(leaf).length === 0) return null;
  const chain: CertificateSeen['chain'] = [];
  const seen = new Set<string>();
  for (let c: DetailedPeerCertificate | undefined = leaf; c && !seen.has(c.fingerprint256);) {
    seen.add(c.fingerprint256);
    chain.push({
      subject: dn(c.subject),
      issuer: dn(c.issuer),
      notAfter: new Date(c.valid_to).toISOString(),
    });
    c = c.issuerCertificate;
  }
  const notAfter = new Date(leaf.valid_to);
  const code = socket.authorized ? null : String(socket.authorizationError ?? 'not authorized');
  return {
    subject: dn(leaf.subject),
    issuer: dn(leaf.issuer),
    notAfter: notAfter.toISOString(),
    daysLeft: Math.floor((notAfter.getTime() - now) / 86_400_000),
    names: (leaf.subjectaltname ?? '')
      .split(',')
      .map((s) => s.trim().replace(/^DNS:/, ''))
      .filter(Boolean),
    valid: code === null,
    problem: code === null ? null : `${PROBLEM_WORDS[code] ?? code} (${name})`,
    chain,
  };
}

/** The expiry stage a certificate is in: the smallest of `stages` (days) it is within, or null. */
export function expiryStage(daysLeft: number, stages: readonly number[]): number | null {
  const within = stages.filter((s) => daysLeft <= s);
  return within.length > 0 ? Math.min(...within) : null;
}
