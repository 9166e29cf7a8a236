/**
 * What a guard scan concludes about one protocol of a domain, from what the domain publishes.
 *
 * A protocol passes when its record is present AND valid:
 *   dmarc    one v=DMARC1 record that parses (v first, p present)
 *   spf      one v=spf1 record that parses and whose whole include/redirect tree stays within the
 *            RFC 7208 limits (10 DNS-querying terms, 2 void lookups), as flattenSpf counts them
 *   mta_sts  one `v=STSv1; id=…` record at _mta-sts
 *   tls_rpt  one `v=TLSRPTv1; rua=…` record at _smtp._tls
 *   bimi     one v=BIMI1 record with a logo URL in l= (the declination `l=;` and certificate-only records
 *            do not pass)
 */
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import type { Protocol } from '../../shared/email-auth/protocols.ts';
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import { parseDmarcRecord } from '../../shared/email-auth/dmarcRecord.ts';
import { parseSpfRecord } from '../../shared/email-auth/spfRecord.ts';
import { flattenSpf } from '../../shared/email-auth/spfFlatten.ts';
import { parseMtaStsRecord } from '../../shared/email-auth/mtaStsPolicy.ts';
import { parseTlsRptRecord } from '../../shared/email-auth/tlsRptRecord.ts';
import { parseBimiRecord } from '../../shared/email-auth/bimiRecord.ts';

/**
 * valid: present and passing; invalid: one record that fails the protocol's checks; multiple: more than one
 * record (receivers use none); missing: nothing published; dns_error: the lookup failed (unknown state).
 */
export type ProtocolStatus = 'valid' | 'invalid' | 'multiple' | 'missing' | 'dns_error';

/** One protocol as a scan saw it. */
export interface ProtocolObservation {
  protocol: Protocol;
  status: ProtocolStatus;
  /** The record (several joined by a newline when status is multiple); null when missing or unknown. */
  recordValue: string | null;
  /** SPF only: DNS-querying terms over the whole tree (0 when no record); null for other protocols. */
  lookupCount: number | null;
}

/** True when the protocol counts as passing (present and valid). */
export function isPassing(status: ProtocolStatus): boolean {
  return status === 'valid';
}

/** True when a record carrying the protocol's version tag is published (valid or not). */
export function isConnected(status: ProtocolStatus): boolean {
  return status === 'valid' || status === 'invalid' || status === 'multiple';
}

function validates(protocol: Exclude<Protocol, 'spf'>, record: string): boolean {
  switch (protocol) {
    case 'dmarc':
      return parseDmarcRecord(record).ok;
    case 'mta_sts':
      return parseMtaStsRecord(record).ok;
    case 'tls_rpt':
      return parseTlsRptRecord(record).ok;
    case 'bimi': {
      const parsed = parseBimiRecord(record);
      return parsed.ok && parsed.value !== null && parsed.value.l !== '';
    }
  }
}

/** Looks `protocol`'s record of `fqdn` up through `resolve` and judges it; never throws. */
export async function observeProtocol(
  protocol: Protocol,
  fqdn: string,
  resolve: DnsResolve,
): Promise<ProtocolObservation> {
  const published = await lookupPublishedRecord(protocol, fqdn, resolve);
  const noLookups = protocol === 'spf' ? 0 : null;
  switch (published.status) {
    case 'dns_error':
      return { protocol, status: 'dns_error', recordValue: null, lookupCount: null };
    case 'missing':
      return { protocol, status: 'missing', recordValue: null, lookupCount: noLookups };
    case 'multiple':
      return {
        protocol,
        status: 'multiple',
        recordValue: published.records.join('\n'),
        lookupCount: noLookups,
      };
    case 'found':
      break;
  }
  const record = published.record ?? '';
  if (protocol !== 'spf') {
    return {
      protocol,
      status: validates(protocol, record) ? 'valid' : 'invalid',
      recordValue: record,
      lookupCount: null,
    };
  }
  if (!parseSpfRecord(record).ok) {
    return { protocol, status: 'invalid', recordValue: record, lookupCount: 0 };
  }
  // Receivers judge the whole tree: an include that cannot be resolved now is a temporary error (unknown
  // state), an overrun of the lookup limits or a broken include is a permanent failure.
  const flat = await flattenSpf(fqdn, resolve);
  if (flat.status === 'temperror')
    return { protocol, status: 'dns_error', recordValue: null, lookupCount: null };
  const status = flat.status === 'ok' && flat.within_limit ? 'valid' : 'invalid';
  return { protocol, status, recordValue: record, lookupCount: flat.lookup_count };
}
