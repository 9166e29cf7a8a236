/**
 * The VMC analysis of a domain (GET /domains/{id}/bimi/vmc) and the VmcCertificate shape shared with
 * POST /bimi/vmc/inspect.
 *
 * DNS first: the BIMI record at `<selector>._bimi.<fqdn>` (through the service's resolver) names the
 * certificate in a=. In the sandbox the service cannot fetch URLs, so only a certificate it hosts itself
 * (a= is the hosted .pem URL, the PEM stored with the configuration) can be analysed; any other a= is
 * reported as a problem. The analysis is cached with the configuration for a day; refresh=true bypasses it.
 * Trust: the BIMI roots plus `extraRoots` (the sandbox's test roots, ./vmcTrustRoots.ts; none in production).
 */
import { parseBimiRecord } from '../../shared/email-auth/bimiRecord.ts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import type { BimiRow } from './bimiStore.ts';
import { hostedFileUrls } from './bimiStore.ts';
import type { VmcInspection } from './vmcInspect.ts';
import { inspectVmc } from './vmcInspect.ts';

/** How long a stored analysis is served without asking for refresh. */
export const VMC_ANALYSIS_TTL_MS = 24 * 3600_000;

/** Problems of an inspection in words: chain, trust, BIMI usage, logo, domain coverage. */
export function inspectionProblems(inspection: VmcInspection): string[] {
  const problems = inspection.chain.problems.map((p) => p.message);
  if (inspection.chain.validation_error && !inspection.chain.trusted) {
    problems.push(`not trusted by the BIMI roots: ${inspection.chain.validation_error.message}`);
  }
  const leaf = inspection.leaf;
  if (leaf && !leaf.has_bimi_eku) problems.push('the certificate lacks the BIMI extended key usage');
  if (leaf?.logotype_error) problems.push(leaf.logotype_error);
  if (leaf?.logo?.hash_valid === false) problems.push('the embedded logo does not match its hash');
  if (inspection.domain && !inspection.domain.covered) {
    problems.push(`the certificate does not cover ${inspection.domain.name}`);
  }
  return [...problems, ...inspection.warnings];
}

/** The VmcCertificate API object of a successful inspection (leaf certificate). */
export function presentCertificate(inspection: VmcInspection): Record<string, unknown> {
  const leaf = inspection.certificates[0]!;
  return {
    subject: leaf.subject,
    issuer: leaf.issuer,
    serial_number: leaf.serial_number,
    valid_from: leaf.valid_from,
    valid_to: leaf.valid_to,
    san: leaf.san_dns,
    ...(inspection.leaf?.kind ? { certificate_type: inspection.leaf.kind } : {}),
    mark_type: inspection.leaf?.mark_type ?? null,
    has_logotype: inspection.leaf?.has_logotype ?? false,
    chain_ok: inspection.chain.problems.length === 0 && inspection.chain.trusted,
    problems: inspectionProblems(inspection),
  };
}

/** The VmcAnalysis API object without domain_id, cached and analyzed_at. */
export interface VmcAnalysisBody {
  fqdn: string;
  bimi_record: string | null;
  logo_url: string | null;
  vmc_url: string | null;
  certificate: Record<string, unknown> | null;
  valid: boolean;
  problems: string[];
}

/** Analyses the domain's published BIMI record and the certificate it names; never throws. */
export async function analyzeVmc(
  fqdn: string,
  config: BimiRow | undefined,
  resolve: DnsResolve,
  now: Date,
  extraRoots: string[],
): Promise<VmcAnalysisBody> {
  const selector = config?.selector ?? 'default';
  const problems: string[] = [];
  const published = await lookupPublishedRecord('bimi', fqdn, resolve, selector);
  const parsed = published.record === null ? null : parseBimiRecord(published.record);
  if (published.status === 'dns_error')
    problems.push(`the BIMI record lookup failed (${published.error_code})`);
  else if (published.status === 'multiple')
    problems.push(`several BIMI records are published at ${published.name}`);
  else if (published.record === null) problems.push(`no BIMI record is published at ${published.name}`);
  else if (!parsed?.ok) {
    problems.push(
      `the BIMI record is invalid: ${parsed?.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
    );
  }
  const record = parsed?.value ?? null;
  const hostedPem = config ? hostedFileUrls(fqdn, selector).vmc : null;
  let pem: string | null = null;
  if (record && record.a === '') problems.push('the BIMI record names no certificate (a= is empty)');
  else if (record && record.a !== hostedPem) {
    problems.push(
      `the certificate at ${record.a} is not hosted by the service and cannot be fetched from the sandbox`,
    );
  } else if (record) {
    pem = config?.vmc_pem ?? null;
    if (pem === null) problems.push('no certificate has been uploaded');
  } else if (config?.vmc_pem) {
    // Nothing published yet: still analyse the uploaded certificate.
    pem = config.vmc_pem;
  }
  let certificate: Record<string, unknown> | null = null;
  let certificateValid = false;
  if (pem !== null) {
    const inspection = await inspectVmc(pem, { now, domain: fqdn, extraRoots });
    if (!inspection.ok) problems.push(`the certificate cannot be read: ${inspection.error?.message}`);
    else {
      certificate = presentCertificate(inspection);
      certificateValid = inspection.valid;
      problems.push(...(certificate.problems as string[]));
    }
  }
  return {
    fqdn,
    bimi_record: published.record,
    logo_url: record?.l ? record.l : null,
    vmc_url: record?.a ? record.a : null,
    certificate,
    valid: certificateValid && record !== null && problems.length === 0,
    problems,
  };
}
