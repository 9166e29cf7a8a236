/**
 * Hosted BIMI (table bimi_configs): the uploaded logo and certificate are served by the service's file host
 * (`https://bimi.hosted.authwatch.example/<fqdn>/<selector>.svg|.pem`); the record built from them
 * (`v=BIMI1; l=<logo>; a=<vmc>`), or the owner's manual override, is served at
 * `<selector>.<fqdn>.bimi.hosted.authwatch.example`, which `<selector>._bimi.<fqdn>` is CNAMEd to.
 *
 * Without an uploaded logo the record still names the hosted logo location (logo_status "missing" says
 * so) — the service serves the logo there as soon as it is uploaded.
 */
import { buildBimiRecord, parseBimiRecord } from '../../shared/email-auth/bimiRecord.ts';
import { checkBimiSvg } from '../../shared/email-auth/bimiSvg.ts';
import { normalizeDomain, recordName } from '../../shared/email-auth/protocols.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import {
  BIMI_FILE_HOST,
  delegationRecord,
  hostedRecordName,
  publishHostedTxt,
} from '../hosted/serviceDns.ts';
import { presentSvgCheck } from './svgResult.ts';
import { inspectVmc, type VmcInspection } from './vmcInspect.ts';

/** A bimi_configs row. */
export interface BimiRow {
  domain_id: number;
  enabled: number;
  selector: string;
  svg_content: string | null;
  vmc_pem: string | null;
  record_override: string | null;
  value: string;
  vmc_analysis: string | null;
  vmc_analyzed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Loads the configuration, if hosted BIMI is provisioned. */
export function loadBimi(db: ServiceDb, domainId: number): BimiRow | undefined {
  return db.prepare<[number], BimiRow>('SELECT * FROM bimi_configs WHERE domain_id = ?').get(domainId);
}

/** Where the service serves the hosted logo and certificate of a domain. */
export function hostedFileUrls(fqdn: string, selector: string): { logo: string; vmc: string } {
  const base = `https://${BIMI_FILE_HOST}/${normalizeDomain(fqdn)}/${selector}`;
  return { logo: `${base}.svg`, vmc: `${base}.pem` };
}

/** The record built from the uploaded files. */
export function recordFromFiles(fqdn: string, selector: string, hasPem: boolean): string {
  const urls = hostedFileUrls(fqdn, selector);
  return buildBimiRecord({ l: urls.logo, a: hasPem ? urls.vmc : '' });
}

/** The configuration to store. */
export interface BimiContent {
  selector: string;
  svg: string | null;
  pem: string | null;
  override: string | null;
}

/** Stores the configuration (new or replaced), publishes its record, drops the cached VMC analysis. */
export function saveBimi(
  db: ServiceDb,
  domain: { id: number; fqdn: string },
  content: BimiContent,
  now: Date,
): BimiRow {
  const previous = loadBimi(db, domain.id);
  const value = content.override ?? recordFromFiles(domain.fqdn, content.selector, content.pem !== null);
  const at = now.toISOString();
  db.prepare(
    `INSERT INTO bimi_configs (domain_id, enabled, selector, svg_content, vmc_pem, record_override, value,
       vmc_analysis, vmc_analyzed_at, created_at, updated_at)
     VALUES (@id, 1, @selector, @svg, @pem, @override, @value, NULL, NULL, @at, @at)
     ON CONFLICT (domain_id) DO UPDATE SET selector = @selector, svg_content = @svg, vmc_pem = @pem,
       record_override = @override, value = @value, vmc_analysis = NULL, vmc_analyzed_at = NULL, updated_at = @at`,
  ).run({
    id: domain.id,
    selector: content.selector,
    svg: content.svg,
    pem: content.pem,
    override: content.override,
    value,
    at,
  });
  if (previous && previous.selector !== content.selector) {
    publishHostedTxt(db, hostedRecordName('bimi', domain.fqdn, previous.selector), null, now);
  }
  publishHostedTxt(db, hostedRecordName('bimi', domain.fqdn, content.selector), value, now);
  return loadBimi(db, domain.id)!;
}

/** Removes the configuration, its hosted files and its record. */
export function deleteBimi(
  db: ServiceDb,
  domain: { id: number; fqdn: string },
  row: BimiRow,
  now: Date,
): void {
  db.prepare('DELETE FROM bimi_configs WHERE domain_id = ?').run(domain.id);
  publishHostedTxt(db, hostedRecordName('bimi', domain.fqdn, row.selector), null, now);
}

/** missing / valid / invalid / expired, from an inspection of the certificate. */
export function vmcStatusOf(inspection: VmcInspection | null): string {
  if (!inspection) return 'missing';
  if (inspection.valid) return 'valid';
  if (inspection.certificates[0]?.expired) return 'expired';
  return 'invalid';
}

/** The BimiConfig API object; the certificate is inspected at `now` against the domain, trusting `extraRoots` too. */
export async function presentBimi(
  row: BimiRow,
  fqdn: string,
  now: Date,
  extraRoots: string[],
): Promise<Record<string, unknown>> {
  const parsed = parseBimiRecord(row.value).value;
  const svgCheck = row.svg_content === null ? null : checkBimiSvg(row.svg_content);
  const inspection =
    row.vmc_pem === null ? null : await inspectVmc(row.vmc_pem, { now, domain: fqdn, extraRoots });
  return {
    domain_id: row.domain_id,
    enabled: row.enabled === 1,
    selector: row.selector,
    record_name: recordName('bimi', fqdn, row.selector),
    record_value: row.value,
    logo_url: parsed?.l ? parsed.l : null,
    vmc_url: parsed?.a ? parsed.a : null,
    hosted_record_name: hostedRecordName('bimi', fqdn, row.selector),
    dns_targets: [delegationRecord('bimi', fqdn, row.selector)],
    logo_status: svgCheck === null ? 'missing' : svgCheck.valid ? 'valid' : 'invalid',
    vmc_status: vmcStatusOf(inspection),
    // The hosted logo itself, so a client can preview what it publishes at logo_url.
    svg: svgCheck === null ? null : presentSvgCheck(svgCheck, row.svg_content),
    updated_at: row.updated_at,
  };
}
