/**
 * The five protocols Authwatch tracks and where each one is published in DNS.
 */

/** Protocol keys exactly as the v1 interface spells them (health.protocols, dns/timeline record_type). */
export const PROTOCOLS = ['dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi'] as const;

export type Protocol = (typeof PROTOCOLS)[number];

/** Human labels for screens and notifications. */
export const PROTOCOL_LABELS: Record<Protocol, string> = {
  dmarc: 'DMARC',
  spf: 'SPF',
  mta_sts: 'MTA-STS',
  tls_rpt: 'TLS-RPT',
  bimi: 'BIMI',
};

/** Where a protocol's record lives and how to recognise it among the TXT strings found there. */
export interface RecordLocation {
  protocol: Protocol;
  /** Owner name of the TXT record, without a trailing dot. */
  name: string;
  rrtype: 'TXT';
  /** The version tag a record must start with (`v=DMARC1`, `v=spf1`, ...). */
  version: string;
  /** Matches the start of a TXT string that belongs to this protocol (case-insensitive, as resolvers select). */
  selector: RegExp;
}

const VERSIONS: Record<Protocol, { version: string; selector: RegExp }> = {
  dmarc: { version: 'v=DMARC1', selector: /^v\s*=\s*DMARC1(\s*;|\s*$)/i },
  // An SPF record is "v=spf1" followed by a space or the end (RFC 7208 §4.5); "v=spf10" is not one.
  spf: { version: 'v=spf1', selector: /^v=spf1(\s|$)/i },
  mta_sts: { version: 'v=STSv1', selector: /^v\s*=\s*STSv1(\s*;|\s*$)/i },
  tls_rpt: { version: 'v=TLSRPTv1', selector: /^v\s*=\s*TLSRPTv1(\s*;|\s*$)/i },
  bimi: { version: 'v=BIMI1', selector: /^v\s*=\s*BIMI1(\s*;|\s*$)/i },
};

/** Type guard for protocol keys coming from the network or the URL. */
export function isProtocol(value: unknown): value is Protocol {
  return typeof value === 'string' && (PROTOCOLS as readonly string[]).includes(value);
}

/** Normalises a domain for DNS use: trimmed, lower-case, no trailing dot. */
export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The DNS name a protocol's TXT record is published at for `domain`.
 * BIMI takes a selector (default `default`), as in `<selector>._bimi.<domain>`.
 */
export function recordName(protocol: Protocol, domain: string, bimiSelector = 'default'): string {
  const d = normalizeDomain(domain);
  switch (protocol) {
    case 'dmarc':
      return `_dmarc.${d}`;
    case 'spf':
      return d;
    case 'mta_sts':
      return `_mta-sts.${d}`;
    case 'tls_rpt':
      return `_smtp._tls.${d}`;
    case 'bimi':
      return `${bimiSelector.toLowerCase()}._bimi.${d}`;
  }
}

/** Full location (name, type, version tag) of a protocol's record for `domain`. */
export function recordLocation(protocol: Protocol, domain: string, bimiSelector = 'default'): RecordLocation {
  const { version, selector } = VERSIONS[protocol];
  return { protocol, name: recordName(protocol, domain, bimiSelector), rrtype: 'TXT', version, selector };
}

/** The host serving the MTA-STS policy file and its URL (RFC 8461 §3.3). */
export function mtaStsPolicyUrl(domain: string): string {
  return `https://mta-sts.${normalizeDomain(domain)}/.well-known/mta-sts.txt`;
}
