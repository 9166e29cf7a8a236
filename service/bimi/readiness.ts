/**
 * BIMI readiness (GET /domains/{id}/bimi/readiness): what mailbox providers require before they show a
 * logo, checked against live DNS (through the service's resolver) and the hosted files.
 *
 *   dmarc_enforced  DMARC p=quarantine or reject, pct=100 (absent = 100), sp not none
 *   spf_present     an SPF record at the domain
 *   bimi_record     a valid, non-declining BIMI record at <selector>._bimi.<fqdn>
 *   svg_valid       the logo it names is valid SVG Tiny PS
 *   vmc_valid       the certificate it names is valid and covers the domain
 *
 * score = passed / total × 100 (rounded); ready when every check passes. The logo and certificate can be
 * judged only when the service hosts them (the sandbox fetches no URLs). The certificate is trusted up to the
 * BIMI roots plus `extraRoots` (the sandbox's test roots; none in production).
 */
import { parseBimiRecord } from '../../shared/email-auth/bimiRecord.ts';
import { checkBimiSvg } from '../../shared/email-auth/bimiSvg.ts';
import { parseDmarcRecord } from '../../shared/email-auth/dmarcRecord.ts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { PROTOCOLS, type Protocol } from '../../shared/email-auth/protocols.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import { hostedFileUrls, type BimiRow } from './bimiStore.ts';
import { analyzeVmc } from './vmcAnalysis.ts';

/** One readiness check (schema CheckItem). */
export interface ReadinessCheck {
  id: string;
  label: string;
  passed: boolean;
  message: string | null;
}

/** The BimiReadiness API object without domain_id. */
export interface Readiness {
  score: number;
  ready: boolean;
  protocols: Record<Protocol, boolean>;
  checks: ReadinessCheck[];
}

function dmarcCheck(record: string | null): ReadinessCheck {
  const label = 'DMARC at enforcement (quarantine or reject, pct=100)';
  if (record === null)
    return { id: 'dmarc_enforced', label, passed: false, message: 'no DMARC record is published' };
  const parsed = parseDmarcRecord(record).value;
  if (!parsed) return { id: 'dmarc_enforced', label, passed: false, message: 'the DMARC record is invalid' };
  const pct = parsed.pct ?? 100;
  const problems: string[] = [];
  if (parsed.p === 'none') problems.push('p=none does not enforce');
  if (pct !== 100) problems.push(`pct=${pct} applies the policy to only part of the mail`);
  if (parsed.sp === 'none') problems.push('sp=none leaves subdomains unenforced');
  return problems.length === 0
    ? { id: 'dmarc_enforced', label, passed: true, message: `p=${parsed.p}, pct=100` }
    : { id: 'dmarc_enforced', label, passed: false, message: problems.join('; ') };
}

/** Runs the checklist for `fqdn`; `config` is the hosted BIMI configuration, if any. Never throws. */
export async function bimiReadiness(
  fqdn: string,
  config: BimiRow | undefined,
  resolve: DnsResolve,
  now: Date,
  extraRoots: string[],
): Promise<Readiness> {
  const selector = config?.selector ?? 'default';
  const lookups = await Promise.all(PROTOCOLS.map((p) => lookupPublishedRecord(p, fqdn, resolve, selector)));
  const published = Object.fromEntries(PROTOCOLS.map((p, i) => [p, lookups[i]!])) as Record<
    Protocol,
    (typeof lookups)[number]
  >;
  const protocols = Object.fromEntries(PROTOCOLS.map((p) => [p, published[p].status === 'found'])) as Record<
    Protocol,
    boolean
  >;

  const checks: ReadinessCheck[] = [dmarcCheck(published.dmarc.record)];
  checks.push({
    id: 'spf_present',
    label: 'SPF record published',
    passed: published.spf.status === 'found',
    message: published.spf.status === 'found' ? published.spf.record : `SPF record ${published.spf.status}`,
  });

  const bimi = published.bimi.record === null ? null : parseBimiRecord(published.bimi.record);
  const record = bimi?.value ?? null;
  checks.push({
    id: 'bimi_record',
    label: `BIMI record at ${published.bimi.name}`,
    passed: record !== null && !record.declined,
    message:
      published.bimi.record === null
        ? `no BIMI record (${published.bimi.status})`
        : !record
          ? bimi!.errors.map((e) => `${e.field}: ${e.message}`).join('; ')
          : record.declined
            ? 'the record declines BIMI (l= and a= are empty)'
            : published.bimi.record,
  });

  const urls = config ? hostedFileUrls(fqdn, selector) : null;
  let svgMessage: string;
  let svgPassed = false;
  if (!record?.l) svgMessage = 'the BIMI record names no logo';
  else if (record.l !== urls?.logo)
    svgMessage = `the logo at ${record.l} is not hosted by the service and cannot be checked from the sandbox`;
  else if (!config?.svg_content) svgMessage = 'no logo has been uploaded';
  else {
    const svg = checkBimiSvg(config.svg_content);
    svgPassed = svg.valid;
    svgMessage = svg.valid ? 'valid SVG Tiny PS' : svg.issues.map((i) => i.message).join('; ');
  }
  checks.push({
    id: 'svg_valid',
    label: 'Logo is valid SVG Tiny PS',
    passed: svgPassed,
    message: svgMessage,
  });

  const vmc = await analyzeVmc(fqdn, config, resolve, now, extraRoots);
  checks.push({
    id: 'vmc_valid',
    label: 'VMC valid and covering the domain',
    passed: vmc.valid,
    message: vmc.valid ? 'the certificate is valid for the domain' : vmc.problems.join('; '),
  });

  const passed = checks.filter((c) => c.passed).length;
  return {
    score: Math.round((passed / checks.length) * 100),
    ready: passed === checks.length,
    protocols,
    checks,
  };
}
