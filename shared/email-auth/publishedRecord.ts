/**
 * Finds a protocol's published record in DNS: the TXT strings at its name that carry its version tag.
 */
import { dnsErrorCode, isVoidAnswer, type DnsResolve } from './dns.ts';
import { recordLocation, type Protocol } from './protocols.ts';

/** What DNS holds for one protocol of one domain. */
export interface PublishedRecord {
  protocol: Protocol;
  name: string;
  /**
   * found: exactly one record; missing: none (or the name does not exist); multiple: more than one, which
   * every one of these protocols treats as no valid record; dns_error: the lookup failed (try again later).
   */
  status: 'found' | 'missing' | 'multiple' | 'dns_error';
  /** The record when exactly one was found. */
  record: string | null;
  /** Every TXT record at the name that carries the version tag, each joined from its character-strings. */
  records: string[];
  /** The DNS error code when status is dns_error. */
  error_code: string | null;
}

/** Looks up `protocol`'s TXT record for `domain`; never throws. */
export async function lookupPublishedRecord(
  protocol: Protocol,
  domain: string,
  resolve: DnsResolve,
  bimiSelector = 'default',
): Promise<PublishedRecord> {
  const loc = recordLocation(protocol, domain, bimiSelector);
  const base = { protocol, name: loc.name };
  let txt: string[][];
  try {
    txt = await resolve(loc.name, 'TXT');
  } catch (err) {
    if (isVoidAnswer(err)) return { ...base, status: 'missing', record: null, records: [], error_code: null };
    return {
      ...base,
      status: 'dns_error',
      record: null,
      records: [],
      error_code: dnsErrorCode(err) ?? 'EUNKNOWN',
    };
  }
  // A record split into several character-strings is one record: the strings are concatenated without spaces.
  const records = txt.map((strings) => strings.join('')).filter((r) => loc.selector.test(r.trim()));
  if (records.length === 0) return { ...base, status: 'missing', record: null, records, error_code: null };
  if (records.length > 1) return { ...base, status: 'multiple', record: null, records, error_code: null };
  return { ...base, status: 'found', record: records[0] ?? null, records, error_code: null };
}
