/**
 * Hosted DMARC configuration (table hosted_dmarc): tags ⇄ record, validation of every tag with
 * shared/email-auth/dmarcRecord.ts, publication in the service's zone and the API shape (schema HostedDmarc).
 */
import {
  buildDmarcRecord,
  validateDmarcTags,
  type DmarcPolicy,
  type DmarcRecord,
  type DmarcTagsInput,
} from '../../shared/email-auth/dmarcRecord.ts';
import { recordName } from '../../shared/email-auth/protocols.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { validationError, type FieldProblem } from '../http/serviceError.ts';
import {
  delegationRecord,
  DMARC_REPORTING_ADDRESS,
  hostedRecordName,
  publishHostedTxt,
  type DnsRecordView,
} from './serviceDns.ts';

/** A hosted_dmarc row. */
export interface HostedDmarcRow {
  domain_id: number;
  enabled: number;
  p: DmarcPolicy;
  sp: DmarcPolicy | null;
  pct: number | null;
  adkim: 'r' | 's' | null;
  aspf: 'r' | 's' | null;
  rua: string | null;
  ruf: string | null;
  fo: string | null;
  ri: number | null;
  value: string;
  created_at: string;
  updated_at: string;
}

/** Tags an owner may set through POST/PATCH (schemas DmarcTagsInput, UpdateHostedDmarcRequest). */
export const EDITABLE_DMARC_TAGS = ['p', 'sp', 'pct', 'adkim', 'aspf', 'rua', 'ruf', 'fo', 'ri'] as const;
export type EditableDmarcTag = (typeof EDITABLE_DMARC_TAGS)[number];
export type DmarcTagValues = Partial<Record<EditableDmarcTag, string | number>>;

/** The reporting URI the service always keeps in rua, so that its reports and analytics keep flowing. */
export const SERVICE_RUA = `mailto:${DMARC_REPORTING_ADDRESS}`;

/** Tags of a newly provisioned record: monitoring only, reports to the service. */
export const DEFAULT_DMARC_TAGS: DmarcTagValues = { p: 'none', rua: SERVICE_RUA };

/** Loads the domain's hosted DMARC row, if provisioned. */
export function loadHostedDmarc(db: ServiceDb, domainId: number): HostedDmarcRow | undefined {
  return db.prepare<[number], HostedDmarcRow>('SELECT * FROM hosted_dmarc WHERE domain_id = ?').get(domainId);
}

/** The editable tags stored in a row (absent tags left out). */
export function tagsOfRow(row: HostedDmarcRow): DmarcTagValues {
  const tags: DmarcTagValues = {};
  for (const tag of EDITABLE_DMARC_TAGS) {
    const v = row[tag];
    if (v !== null && v !== undefined) tags[tag] = v;
  }
  return tags;
}

// Decision: a hosted record always reports to the service (hosted-DMARC providers do the same, or their
// dashboards go dark). The owner's addresses are kept after the service's one.
function withServiceRua(rua: string | number | undefined): string {
  const uris = typeof rua === 'string' ? rua.split(',').map((u) => u.trim()) : [];
  const others = uris.filter((u) => u !== '' && u.toLowerCase() !== SERVICE_RUA);
  return [SERVICE_RUA, ...others].join(',');
}

/**
 * Validates the merged tags with the shared DMARC validator; any problem becomes a 422 with one detail
 * per tag (`body.<tag>`). Returns the valid record.
 */
export function validateTags(tags: DmarcTagValues): DmarcRecord {
  const merged: DmarcTagValues = { ...tags, rua: withServiceRua(tags.rua) };
  const input: DmarcTagsInput = {};
  // rua/ruf go in as the comma-separated text of the body, so a problem is reported as body.rua / body.ruf.
  for (const tag of EDITABLE_DMARC_TAGS) if (merged[tag] !== undefined) input[tag] = merged[tag];
  const result = validateDmarcTags(input);
  if (!result.ok || !result.value) {
    const details: FieldProblem[] = result.errors.map((e) => ({
      field: `body.${e.field}`,
      message: e.message,
    }));
    throw validationError(details, 'The DMARC tags are invalid.');
  }
  return result.value;
}

/** Writes the configuration and publishes the record in the service's zone; returns the stored row. */
export function saveHostedDmarc(
  db: ServiceDb,
  domain: { id: number; fqdn: string },
  record: DmarcRecord,
  now: Date,
): HostedDmarcRow {
  const value = buildDmarcRecord(record);
  const at = now.toISOString();
  const list = (v: string[] | undefined, sep: string) => (v && v.length > 0 ? v.join(sep) : null);
  db.prepare(
    `INSERT INTO hosted_dmarc (domain_id, enabled, p, sp, pct, adkim, aspf, rua, ruf, fo, ri, value, created_at, updated_at)
     VALUES (@domain_id, 1, @p, @sp, @pct, @adkim, @aspf, @rua, @ruf, @fo, @ri, @value, @at, @at)
     ON CONFLICT (domain_id) DO UPDATE SET enabled = 1, p = @p, sp = @sp, pct = @pct, adkim = @adkim,
       aspf = @aspf, rua = @rua, ruf = @ruf, fo = @fo, ri = @ri, value = @value, updated_at = @at`,
  ).run({
    domain_id: domain.id,
    p: record.p,
    sp: record.sp ?? null,
    pct: record.pct ?? null,
    adkim: record.adkim ?? null,
    aspf: record.aspf ?? null,
    rua: list(record.rua, ','),
    ruf: list(record.ruf, ','),
    fo: list(record.fo, ':'),
    ri: record.ri ?? null,
    value,
    at,
  });
  publishHostedTxt(db, hostedRecordName('dmarc', domain.fqdn), value, now);
  return loadHostedDmarc(db, domain.id)!;
}

/** Removes the configuration and withdraws the record from the service's zone. */
export function deleteHostedDmarc(db: ServiceDb, domain: { id: number; fqdn: string }, now: Date): void {
  db.prepare('DELETE FROM hosted_dmarc WHERE domain_id = ?').run(domain.id);
  publishHostedTxt(db, hostedRecordName('dmarc', domain.fqdn), null, now);
}

/** The DmarcTags shape: every tag, null when absent from the record. */
export function presentDmarcTags(record: Omit<DmarcRecord, 'v'> & { v?: string }): Record<string, unknown> {
  return {
    v: 'DMARC1',
    p: record.p,
    sp: record.sp ?? null,
    pct: record.pct ?? null,
    adkim: record.adkim ?? null,
    aspf: record.aspf ?? null,
    rua: record.rua && record.rua.length > 0 ? record.rua.join(',') : null,
    ruf: record.ruf && record.ruf.length > 0 ? record.ruf.join(',') : null,
    fo: record.fo && record.fo.length > 0 ? record.fo.join(':') : null,
    ri: record.ri ?? null,
  };
}

/** The row as a DmarcRecord. */
export function recordOfRow(row: HostedDmarcRow): DmarcRecord {
  const split = (v: string | null, sep: string) => (v === null ? undefined : v.split(sep));
  const record: DmarcRecord = { v: 'DMARC1', p: row.p };
  if (row.sp !== null) record.sp = row.sp;
  if (row.pct !== null) record.pct = row.pct;
  if (row.adkim !== null) record.adkim = row.adkim;
  if (row.aspf !== null) record.aspf = row.aspf;
  if (row.rua !== null) record.rua = split(row.rua, ',');
  if (row.ruf !== null) record.ruf = split(row.ruf, ',');
  if (row.fo !== null) record.fo = split(row.fo, ':');
  if (row.ri !== null) record.ri = row.ri;
  return record;
}

/** The HostedDmarc API object. */
export function presentHostedDmarc(row: HostedDmarcRow, fqdn: string): Record<string, unknown> {
  const dnsTargets: DnsRecordView[] = [delegationRecord('dmarc', fqdn)];
  return {
    domain_id: row.domain_id,
    name: recordName('dmarc', fqdn),
    value: row.value,
    enabled: row.enabled === 1,
    policy: row.p,
    tags: presentDmarcTags(recordOfRow(row)),
    hosted_record_name: hostedRecordName('dmarc', fqdn),
    dns_targets: dnsTargets,
    updated_at: row.updated_at,
  };
}
