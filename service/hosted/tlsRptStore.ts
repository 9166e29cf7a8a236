/**
 * Hosted TLS-RPT (table tls_rpt_configs): the record `v=TLSRPTv1; rua=mailto:<service address>` (or the
 * owner's override) served at `<fqdn>.tls-rpt.hosted.authwatch.example`; the customer delegates
 * `_smtp._tls.<fqdn>` to it by a CNAME.
 */
import { recordName } from '../../shared/email-auth/protocols.ts';
import { buildTlsRptRecord } from '../../shared/email-auth/tlsRptRecord.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import {
  delegationRecord,
  hostedRecordName,
  publishHostedTxt,
  TLS_RPT_REPORTING_ADDRESS,
} from './serviceDns.ts';

/** A tls_rpt_configs row. */
export interface TlsRptRow {
  domain_id: number;
  enabled: number;
  value: string;
  custom: number;
  created_at: string;
  updated_at: string;
}

/** The record a new hosted TLS-RPT configuration serves. */
export const DEFAULT_TLS_RPT_RECORD = buildTlsRptRecord({ rua: [`mailto:${TLS_RPT_REPORTING_ADDRESS}`] });

/** Loads the configuration, if provisioned. */
export function loadTlsRpt(db: ServiceDb, domainId: number): TlsRptRow | undefined {
  return db.prepare<[number], TlsRptRow>('SELECT * FROM tls_rpt_configs WHERE domain_id = ?').get(domainId);
}

/** Creates or replaces the configuration with `value` and publishes it; returns the row. */
export function saveTlsRpt(
  db: ServiceDb,
  domain: { id: number; fqdn: string },
  value: string,
  custom: boolean,
  now: Date,
): TlsRptRow {
  const at = now.toISOString();
  db.prepare(
    `INSERT INTO tls_rpt_configs (domain_id, enabled, value, custom, created_at, updated_at)
     VALUES (?, 1, ?, ?, ?, ?)
     ON CONFLICT (domain_id) DO UPDATE SET enabled = 1, value = excluded.value, custom = excluded.custom,
       updated_at = excluded.updated_at`,
  ).run(domain.id, value, custom ? 1 : 0, at, at);
  publishHostedTxt(db, hostedRecordName('tls_rpt', domain.fqdn), value, now);
  return loadTlsRpt(db, domain.id)!;
}

/** How the record looks in DNS from outside: verified when `_smtp._tls.<fqdn>` answers the hosted record. */
export async function tlsRptVerification(
  fqdn: string,
  value: string,
  resolve: DnsResolve,
): Promise<{ verified: boolean; status: string }> {
  const published = await lookupPublishedRecord('tls_rpt', fqdn, resolve);
  switch (published.status) {
    case 'found':
      return published.record?.trim() === value.trim()
        ? { verified: true, status: 'verified' }
        : { verified: false, status: 'mismatch' };
    case 'missing':
      return { verified: false, status: 'pending_dns' };
    case 'multiple':
      return { verified: false, status: 'multiple_records' };
    default:
      return { verified: false, status: 'dns_error' };
  }
}

/** TLS reports received for the domain (S3b's tls_reports, 036_tls_reports.sql). */
export function tlsReportCount(db: ServiceDb, domainId: number): number {
  return (
    db
      .prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM tls_reports WHERE domain_id = ?')
      .get(domainId)?.n ?? 0
  );
}

/** The TlsRpt API object. */
export function presentTlsRpt(
  db: ServiceDb,
  row: TlsRptRow,
  fqdn: string,
  verification: { verified: boolean; status: string },
): Record<string, unknown> {
  return {
    domain_id: row.domain_id,
    enabled: row.enabled === 1,
    record_name: recordName('tls_rpt', fqdn),
    record_value: row.value,
    reporting_address: TLS_RPT_REPORTING_ADDRESS,
    dns_targets: [delegationRecord('tls_rpt', fqdn)],
    verified: verification.verified,
    verification_status: verification.status,
    reports_count: tlsReportCount(db, row.domain_id),
    updated_at: row.updated_at,
  };
}
