/**
 * What one protocol's TXT answer means, judged with shared/email-auth as receivers judge it: present (one
 * valid record), invalid (two records, a syntax error, an SPF tree over its lookup limits — with the reason in
 * words), absent (no record), or unknown (the resolver could not say).
 */
import { parseBimiRecord } from '../../../shared/email-auth/bimiRecord.ts';
import { parseDmarcRecord } from '../../../shared/email-auth/dmarcRecord.ts';
import type { ParseResult } from '../../../shared/email-auth/issues.ts';
import { parseMtaStsRecord } from '../../../shared/email-auth/mtaStsPolicy.ts';
import { PROTOCOL_LABELS, recordLocation, type Protocol } from '../../../shared/email-auth/protocols.ts';
import { flattenSpf } from '../../../shared/email-auth/spfFlatten.ts';
import { parseTlsRptRecord } from '../../../shared/email-auth/tlsRptRecord.ts';
import type { DnsResolve } from '../../../shared/email-auth/dns.ts';
import type { Lookup } from './watchResolver.ts';

/** The watch's verdict on one record. */
export type Answer = 'present' | 'invalid' | 'absent' | 'unknown';

export interface Judgement {
  answer: Answer;
  /** The record(s) of the protocol found at the name, one per line. */
  value: string | null;
  /** Why it is invalid or unknown, in words. */
  reason: string | null;
}

const PARSERS: Record<Exclude<Protocol, 'spf'>, (text: string) => ParseResult<unknown>> = {
  dmarc: parseDmarcRecord,
  mta_sts: parseMtaStsRecord,
  tls_rpt: parseTlsRptRecord,
  bimi: parseBimiRecord,
};

function firstError(result: ParseResult<unknown>): string {
  const e = result.errors[0];
  if (!e) return 'the record cannot be read';
  return e.field && !e.message.includes(e.field) ? `${e.field}: ${e.message}` : e.message;
}

/**
 * Judges `lookup` (the TXT answer at the protocol's name of `domain`). SPF is also resolved through its
 * includes with `resolve`, counting lookups as receivers do.
 */
export async function judgeRecord(
  protocol: Protocol,
  domain: string,
  lookup: Lookup,
  resolve: DnsResolve,
): Promise<Judgement> {
  const label = PROTOCOL_LABELS[protocol];
  if (lookup.kind === 'unknown') return { answer: 'unknown', value: null, reason: lookup.reason };
  if (lookup.kind === 'absent') return { answer: 'absent', value: null, reason: null };
  const { selector } = recordLocation(protocol, domain);
  // A record split into several character-strings is one record: joined without spaces (RFC 7208 §3.3).
  const records = lookup.values.map((strings) => strings.join('')).filter((r) => selector.test(r.trim()));
  if (records.length === 0) return { answer: 'absent', value: null, reason: null };
  const value = records.join('\n');
  if (records.length > 1) {
    return {
      answer: 'invalid',
      value,
      reason: `${records.length} ${label} records are published; receivers ignore them all`,
    };
  }
  const record = records[0]!;
  if (protocol !== 'spf') {
    const parsed = PARSERS[protocol](record);
    return parsed.ok
      ? { answer: 'present', value, reason: null }
      : { answer: 'invalid', value, reason: firstError(parsed) };
  }
  const spf = await flattenSpf(domain, resolve);
  if (spf.status === 'temperror') {
    const why = spf.errors.find((e) => e.code === 'dns_error')?.message ?? 'a DNS lookup failed';
    return { answer: 'unknown', value, reason: why };
  }
  if (spf.status === 'permerror') {
    return { answer: 'invalid', value, reason: spf.errors[0]?.message ?? 'receivers fail this record' };
  }
  if (spf.status === 'none') return { answer: 'absent', value: null, reason: null };
  if (!spf.within_limit) {
    const why =
      spf.lookup_count > spf.lookup_limit
        ? `${spf.lookup_count} DNS lookups (receivers allow ${spf.lookup_limit})`
        : `${spf.void_lookup_count} void lookups (receivers allow ${spf.void_lookup_limit})`;
    return { answer: 'invalid', value, reason: why };
  }
  return { answer: 'present', value, reason: null };
}
