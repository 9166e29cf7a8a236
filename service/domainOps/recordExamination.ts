/**
 * Examines one protocol record of a domain with the shared/email-auth parsers: either what the domain
 * publishes (looked up through the service resolver; SPF is also resolved recursively by flattenSpf for
 * its DNS-lookup count) or a record value the caller supplied. Used by POST /domains/{id}/verify and
 * POST /domains/{id}/check-dns.
 */
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import type { ParseResult } from '../../shared/email-auth/issues.ts';
import { PROTOCOL_LABELS, recordName, type Protocol } from '../../shared/email-auth/protocols.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import { parseDmarcRecord } from '../../shared/email-auth/dmarcRecord.ts';
import { parseSpfRecord } from '../../shared/email-auth/spfRecord.ts';
import { flattenSpf } from '../../shared/email-auth/spfFlatten.ts';
import { parseMtaStsRecord } from '../../shared/email-auth/mtaStsPolicy.ts';
import { parseTlsRptRecord } from '../../shared/email-auth/tlsRptRecord.ts';
import { parseBimiRecord } from '../../shared/email-auth/bimiRecord.ts';

/**
 * valid: one record, no errors; invalid: one record with errors (or, for SPF, a tree receivers reject);
 * missing: none published; multiple: more than one (receivers use none); dns_error: the lookup failed.
 */
export type RecordStatus = 'valid' | 'invalid' | 'missing' | 'multiple' | 'dns_error';

/** What was found and what is wrong with it. */
export interface RecordExamination {
  protocol: Protocol;
  /** The DNS name the record lives at. */
  name: string;
  status: RecordStatus;
  /** Records carrying the protocol's version tag (or the supplied value). */
  values: string[];
  /** SPF: DNS-querying terms counted over the whole include tree (null for other protocols). */
  lookupCount: number | null;
  errors: string[];
  warnings: string[];
  source: 'dns' | 'supplied';
}

const PARSERS: Record<Protocol, (text: string) => ParseResult<unknown>> = {
  dmarc: parseDmarcRecord,
  spf: parseSpfRecord,
  mta_sts: parseMtaStsRecord,
  tls_rpt: parseTlsRptRecord,
  bimi: parseBimiRecord,
};

function syntax(protocol: Protocol, text: string): { errors: string[]; warnings: string[] } {
  const result = PARSERS[protocol](text);
  return {
    errors: result.errors.map((i) => `${i.field}: ${i.message}`),
    warnings: result.warnings.map((i) => `${i.field}: ${i.message}`),
  };
}

/** Checks a record value given by the caller instead of looking it up. */
export function examineSuppliedRecord(protocol: Protocol, fqdn: string, text: string): RecordExamination {
  const { errors, warnings } = syntax(protocol, text);
  return {
    protocol,
    name: recordName(protocol, fqdn),
    status: errors.length === 0 ? 'valid' : 'invalid',
    values: [text],
    lookupCount: null,
    errors,
    warnings,
    source: 'supplied',
  };
}

/** Looks the protocol's record up and checks it; never throws. */
export async function examinePublishedRecord(
  protocol: Protocol,
  fqdn: string,
  resolve: DnsResolve,
): Promise<RecordExamination> {
  const label = PROTOCOL_LABELS[protocol];
  const published = await lookupPublishedRecord(protocol, fqdn, resolve);
  const base = { protocol, name: published.name, values: published.records, source: 'dns' as const };
  switch (published.status) {
    case 'missing':
      return {
        ...base,
        status: 'missing',
        lookupCount: null,
        errors: [`no ${label} record is published at ${published.name}`],
        warnings: [],
      };
    case 'dns_error':
      return {
        ...base,
        status: 'dns_error',
        lookupCount: null,
        errors: [`the DNS lookup of ${published.name} failed (${published.error_code ?? 'unknown error'})`],
        warnings: [],
      };
    case 'multiple':
      return {
        ...base,
        status: 'multiple',
        lookupCount: null,
        errors: [
          `${published.records.length} ${label} records are published at ${published.name}; receivers use none of them`,
        ],
        warnings: [],
      };
    case 'found':
      break;
  }
  const record = published.record ?? '';
  if (protocol !== 'spf') {
    const { errors, warnings } = syntax(protocol, record);
    return {
      ...base,
      status: errors.length === 0 ? 'valid' : 'invalid',
      lookupCount: null,
      errors,
      warnings,
    };
  }
  // SPF is judged as receivers judge it: the whole include/redirect tree, with the 10-lookup limit.
  const flat = await flattenSpf(fqdn, resolve);
  const { warnings } = syntax('spf', record);
  const status: RecordStatus =
    flat.status === 'ok' ? 'valid' : flat.status === 'temperror' ? 'dns_error' : 'invalid';
  return {
    ...base,
    status,
    lookupCount: flat.lookup_count,
    errors: flat.errors.map((i) => i.message),
    warnings: [...warnings, ...flat.warnings.map((i) => `${i.domain}: ${i.message}`)],
  };
}
