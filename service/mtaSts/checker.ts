/**
 * POST /domains/{id}/mta-sts/check: validates the hosted MTA-STS setup the way a sending MTA would meet it.
 *
 *   always          policy_syntax  the served policy file parses (RFC 8461 §3.2)
 *                   mx_coverage    every live MX host matches one of the policy's mx patterns
 *   verify_dns      txt_record     `_mta-sts.<fqdn>` answers v=STSv1 with the configured id
 *                   policy_host    `mta-sts.<fqdn>` resolves to the service's policy host
 *   deploy_policy   policy_deployed  the policy and its TXT record are (re)published first
 *   (default: verify_dns)
 *   require_caa     caa            CAA lets the service's CA issue the policy host's certificate
 *
 * valid = every check that ran passed.
 */
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { dnsErrorCode } from '../../shared/email-auth/dns.ts';
import {
  mxMatchesPattern,
  parseMtaStsPolicy,
  parseMtaStsRecord,
} from '../../shared/email-auth/mtaStsPolicy.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import { MTA_STS_POLICY_HOST_ADDRESS } from '../hosted/serviceDns.ts';
import { checkCaa } from './caaCheck.ts';
import { lookupMxHosts } from './liveMx.ts';

/** Options of the check (the request body). */
export interface MtaStsCheckOptions {
  verify_dns?: boolean;
  require_caa?: boolean;
  deploy_policy?: boolean;
}

/** One check (schema CheckItem). */
export interface CheckItem {
  id: string;
  label: string;
  passed: boolean;
  message: string | null;
}

/** What the checker needs to know about the hosted policy. */
export interface CheckSubject {
  fqdn: string;
  policyId: string;
  /** The policy file as served. */
  webFile: string;
  /** Re-publishes the policy (deploy_policy). */
  deploy: () => void;
}

/** The check result without domain_id. */
export interface MtaStsCheckOutcome {
  valid: boolean;
  checks: CheckItem[];
  errors: string[];
  warnings: string[];
  /** Whether the TXT record seen in DNS announces the configured id (null when DNS was not verified). */
  inSync: boolean | null;
}

/** Runs the checks through `resolve`. */
export async function checkMtaSts(
  subject: CheckSubject,
  options: MtaStsCheckOptions,
  resolve: DnsResolve,
): Promise<MtaStsCheckOutcome> {
  const verifyDns = options.verify_dns === true;
  const deploy = options.deploy_policy ?? verifyDns;
  const checks: CheckItem[] = [];
  const warnings: string[] = [];
  const add = (id: string, label: string, passed: boolean, message: string | null) =>
    checks.push({ id, label, passed, message });

  if (deploy) {
    subject.deploy();
    add(
      'policy_deployed',
      'Policy deployed to the policy host',
      true,
      `policy ${subject.policyId} is served`,
    );
  }

  const parsed = parseMtaStsPolicy(subject.webFile);
  add(
    'policy_syntax',
    'Policy file is well-formed',
    parsed.ok,
    parsed.ok ? null : parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
  );
  warnings.push(...parsed.warnings.map((w) => `${w.field}: ${w.message}`));
  if (parsed.value?.mode === 'none') warnings.push('mode is none: senders do not apply the policy');

  try {
    const hosts = await lookupMxHosts(subject.fqdn, resolve);
    const patterns = parsed.value?.mx ?? [];
    const uncovered = hosts.filter((h) => !patterns.some((p) => mxMatchesPattern(h, p)));
    if (hosts.length === 0)
      add('mx_coverage', 'MX hosts covered by the policy', false, `${subject.fqdn} has no MX records`);
    else
      add(
        'mx_coverage',
        'MX hosts covered by the policy',
        uncovered.length === 0,
        uncovered.length === 0
          ? `all ${hosts.length} MX host(s) match the policy`
          : `not covered by any mx line: ${uncovered.join(', ')}`,
      );
  } catch (err) {
    add(
      'mx_coverage',
      'MX hosts covered by the policy',
      false,
      `MX lookup failed (${dnsErrorCode(err) ?? 'error'})`,
    );
  }

  let inSync: boolean | null = null;
  if (verifyDns) {
    const txt = await lookupPublishedRecord('mta_sts', subject.fqdn, resolve);
    if (txt.status !== 'found' || txt.record === null) {
      const why =
        txt.status === 'multiple'
          ? 'several v=STSv1 records are published'
          : txt.status === 'dns_error'
            ? `the lookup failed (${txt.error_code})`
            : 'no v=STSv1 record is published';
      add('txt_record', `TXT record at ${txt.name}`, false, why);
      inSync = false;
    } else {
      const record = parseMtaStsRecord(txt.record);
      const id = record.value?.id;
      inSync = id === subject.policyId;
      add(
        'txt_record',
        `TXT record at ${txt.name}`,
        record.ok && inSync,
        !record.ok
          ? record.errors.map((e) => `${e.field}: ${e.message}`).join('; ')
          : inSync
            ? `announces id=${id}`
            : `announces id=${id}, but the policy's id is ${subject.policyId}: senders will not fetch the new policy`,
      );
    }
    const host = `mta-sts.${subject.fqdn}`;
    try {
      const addresses = await resolve(host, 'A');
      const ok = addresses.includes(MTA_STS_POLICY_HOST_ADDRESS);
      add(
        'policy_host',
        `Policy host ${host}`,
        ok,
        ok
          ? 'points at the service policy host'
          : `resolves to ${addresses.join(', ')}, not to the service policy host`,
      );
    } catch (err) {
      add(
        'policy_host',
        `Policy host ${host}`,
        false,
        `${host} does not resolve (${dnsErrorCode(err) ?? 'error'})`,
      );
    }
  }

  if (options.require_caa) {
    const caa = await checkCaa(`mta-sts.${subject.fqdn}`, resolve);
    add('caa', 'CAA allows the policy host certificate', caa.passed, caa.message);
  }

  const failed = checks.filter((c) => !c.passed);
  return {
    valid: failed.length === 0,
    checks,
    errors: failed.map((c) => `${c.label}: ${c.message ?? 'failed'}`),
    warnings,
    inSync,
  };
}
