/**
 * POST /domains/{id}/verify and GET /domains/{id}/status: per-protocol verification of a domain.
 *
 * Verifying examines all five protocols: a record value given in the request body is checked as given
 * (instead of the live DNS, as the document says); the others are looked up. Each outcome is stored in
 * domain_protocol_checks and mirrored in the domain's <protocol>_verified flags (which the health "live"
 * fallback reads). A DNS failure leaves the previous flag as it was: an outage is not a broken record.
 */
import type { ServiceContext } from '../http/operation.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { PROTOCOLS, type Protocol } from '../../shared/email-auth/protocols.ts';
import type { DomainRow } from '../domains/domainRow.ts';
import {
  examinePublishedRecord,
  examineSuppliedRecord,
  type RecordExamination,
} from './recordExamination.ts';

/** Body field of POST /domains/{id}/verify per protocol. */
export const SUPPLIED_FIELDS: Record<Protocol, string> = {
  dmarc: 'dmarc_record',
  spf: 'spf_record',
  mta_sts: 'mta_sts_record',
  tls_rpt: 'tls_rpt_record',
  bimi: 'bimi_record',
};

interface CheckRow {
  protocol: Protocol;
  verified: number;
  status: string;
  record_value: string | null;
  message: string | null;
  source: string;
  checked_at: string;
}

function messageOf(e: RecordExamination): string | null {
  if (e.errors.length > 0) return e.errors.join('; ');
  const from = e.source === 'supplied' ? 'the supplied record' : `the record published at ${e.name}`;
  return e.warnings.length > 0
    ? `${from} is valid, with warnings: ${e.warnings.join('; ')}`
    : `${from} is valid`;
}

/** Verifies the five protocols of `domain` and stores the outcome. */
export async function verifyDomain(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'resolver'>,
  domain: DomainRow,
  supplied: Partial<Record<string, string>>,
): Promise<void> {
  const examinations = await Promise.all(
    PROTOCOLS.map((p) => {
      const given = supplied[SUPPLIED_FIELDS[p]];
      return given === undefined
        ? examinePublishedRecord(p, domain.fqdn, ctx.resolver)
        : Promise.resolve(examineSuppliedRecord(p, domain.fqdn, given));
    }),
  );
  const now = ctx.clock().toISOString();
  const { db } = ctx;
  db.transaction(() => {
    const upsert = db.prepare(
      `INSERT INTO domain_protocol_checks (domain_id, protocol, verified, status, record_value, message, source, checked_at)
       VALUES (@domainId, @protocol, @verified, @status, @record, @message, @source, @at)
       ON CONFLICT (domain_id, protocol) DO UPDATE SET verified = excluded.verified, status = excluded.status,
         record_value = excluded.record_value, message = excluded.message, source = excluded.source,
         checked_at = excluded.checked_at`,
    );
    const flags: Record<Protocol, number> = {
      dmarc: domain.dmarc_verified,
      spf: domain.spf_verified,
      mta_sts: domain.mta_sts_verified,
      tls_rpt: domain.tls_rpt_verified,
      bimi: domain.bimi_verified,
    };
    for (const e of examinations) {
      if (e.status !== 'dns_error') flags[e.protocol] = e.status === 'valid' ? 1 : 0;
      upsert.run({
        domainId: domain.id,
        protocol: e.protocol,
        verified: flags[e.protocol],
        status: e.status,
        record: e.values.length === 1 ? e.values[0] : e.values.length > 1 ? e.values.join('\n') : null,
        message: messageOf(e),
        source: e.source,
        at: now,
      });
    }
    db.prepare(
      `UPDATE domains SET dmarc_verified = ?, spf_verified = ?, mta_sts_verified = ?, tls_rpt_verified = ?,
         bimi_verified = ?, verified_at = ?, updated_at = ? WHERE id = ?`,
    ).run(flags.dmarc, flags.spf, flags.mta_sts, flags.tls_rpt, flags.bimi, now, now, domain.id);
  })();
}

/**
 * The document's `DomainStatus` of a domain: the stored outcome per protocol; a protocol never verified
 * reports its flag with status not_checked (or valid when the flag was set by provisioning).
 */
export function domainStatus(db: ServiceDb, domain: DomainRow): Record<string, unknown> {
  const rows = db
    .prepare<[number], CheckRow>('SELECT * FROM domain_protocol_checks WHERE domain_id = ?')
    .all(domain.id);
  const flag: Record<Protocol, boolean> = {
    dmarc: domain.dmarc_verified === 1,
    spf: domain.spf_verified === 1,
    mta_sts: domain.mta_sts_verified === 1,
    tls_rpt: domain.tls_rpt_verified === 1,
    bimi: domain.bimi_verified === 1,
  };
  const protocols: Record<string, unknown> = {};
  let checkedAt: string | null = null;
  for (const p of PROTOCOLS) {
    const row = rows.find((r) => r.protocol === p);
    if (row && (checkedAt === null || row.checked_at > checkedAt)) checkedAt = row.checked_at;
    protocols[p] = {
      // The flag is the truth (provisioning by other operations may set it after the last verify).
      verified: flag[p],
      status: row ? row.status : flag[p] ? 'valid' : 'not_checked',
      record_value: row?.record_value ?? null,
      message: row?.message ?? null,
    };
  }
  return {
    domain_id: domain.id,
    fqdn: domain.fqdn,
    verified: Object.values(flag).every(Boolean),
    protocols,
    checked_at: checkedAt,
  };
}
