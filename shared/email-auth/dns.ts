/**
 * The DNS resolver contract used by every module that looks records up (SPF flattening, DNS checks, BIMI).
 * It is the shape of node's `dns.promises.resolve`, so that function can be passed as is in Node, while tests,
 * the browser and the reference service's fake zones pass their own implementation.
 */

export type DnsRecordType = 'TXT' | 'MX' | 'A' | 'AAAA' | 'CNAME' | 'PTR';

/** An MX answer, as node's resolver returns it. */
export interface MxRecord {
  exchange: string;
  priority: number;
}

/** Answer shape per record type: TXT is one array of character-strings per record. */
export interface DnsAnswer {
  TXT: string[][];
  MX: MxRecord[];
  A: string[];
  AAAA: string[];
  CNAME: string[];
  PTR: string[];
}

/**
 * Resolves one name and type. Rejects with an error whose `code` is one of DNS_ERROR_CODES;
 * ENOTFOUND (NXDOMAIN) and ENODATA (no answers of that type) are the "void" answers of RFC 7208 §4.6.4.
 */
export interface DnsResolve {
  (name: string, rrtype: 'TXT'): Promise<string[][]>;
  (name: string, rrtype: 'MX'): Promise<MxRecord[]>;
  (name: string, rrtype: 'A' | 'AAAA' | 'CNAME' | 'PTR'): Promise<string[]>;
}

/** Error codes node's resolver uses and that callers here distinguish. */
export const DNS_ERROR_CODES = ['ENOTFOUND', 'ENODATA', 'ETIMEOUT', 'ESERVFAIL', 'EREFUSED'] as const;

export type DnsErrorCode = (typeof DNS_ERROR_CODES)[number];

/** An Error carrying a DNS error `code`, like the errors node's resolver rejects with. */
export class DnsError extends Error {
  readonly code: DnsErrorCode;
  readonly hostname: string;
  constructor(code: DnsErrorCode, hostname: string, rrtype: string) {
    super(`query${rrtype} ${code} ${hostname}`);
    this.name = 'DnsError';
    this.code = code;
    this.hostname = hostname;
  }
}

/** The DNS error code of a rejection, or undefined when it is not a DNS error. */
export function dnsErrorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') {
    return err.code;
  }
  return undefined;
}

/** True for NXDOMAIN or NOERROR-with-no-answers: the name has nothing of that type. */
export function isVoidAnswer(err: unknown): boolean {
  const code = dnsErrorCode(err);
  return code === 'ENOTFOUND' || code === 'ENODATA';
}

/** Records of one name in a static zone. TXT entries are a whole record (split into 255-byte strings) or its strings. */
export interface StaticZoneEntry {
  TXT?: (string | string[])[];
  MX?: MxRecord[];
  A?: string[];
  AAAA?: string[];
  CNAME?: string[];
  PTR?: string[];
  /** Makes every query for this name fail with the given code (e.g. ETIMEOUT, ESERVFAIL). */
  error?: DnsErrorCode;
}

/** A resolver over an in-memory zone, recording the queries it answered. */
export interface StaticResolver extends DnsResolve {
  readonly queries: { name: string; rrtype: DnsRecordType }[];
}

// DNS character-strings are at most 255 octets; long TXT records are published as several of them.
function splitTxt(record: string): string[] {
  if (record.length <= 255) return [record];
  const chunks: string[] = [];
  for (let i = 0; i < record.length; i += 255) chunks.push(record.slice(i, i + 255));
  return chunks;
}

/**
 * An in-memory zone for tests and demos: a missing name answers ENOTFOUND, a name without records of the
 * asked type answers ENODATA, and `error` simulates server failures.
 */
export function createStaticResolver(zone: Record<string, StaticZoneEntry>): StaticResolver {
  const entries = new Map<string, StaticZoneEntry>();
  for (const [name, entry] of Object.entries(zone)) entries.set(name.toLowerCase().replace(/\.$/, ''), entry);
  const queries: { name: string; rrtype: DnsRecordType }[] = [];

  const resolve = async (name: string, rrtype: DnsRecordType): Promise<DnsAnswer[DnsRecordType]> => {
    const key = name.toLowerCase().replace(/\.$/, '');
    queries.push({ name: key, rrtype });
    const entry = entries.get(key);
    if (!entry) throw new DnsError('ENOTFOUND', name, rrtype);
    if (entry.error) throw new DnsError(entry.error, name, rrtype);
    if (rrtype === 'TXT') {
      const txt = entry.TXT ?? [];
      if (txt.length === 0) throw new DnsError('ENODATA', name, rrtype);
      return txt.map((r) => (Array.isArray(r) ? [...r] : splitTxt(r)));
    }
    const answers = entry[rrtype] ?? [];
    if (answers.length === 0) throw new DnsError('ENODATA', name, rrtype);
    return rrtype === 'MX' ? (answers as MxRecord[]).map((mx) => ({ ...mx })) : [...(answers as string[])];
  };
  return Object.assign(resolve as DnsResolve, { queries });
}

/** A resolver typed with a plain-string rrtype, as mailauth declares its `resolver` option. */
export type LooseDnsResolve = (name: string, rrtype: string) => Promise<string[][] | string[]>;

/** The same function, retyped for APIs (mailauth) that declare `rrtype: string`; no wrapping happens. */
export function asLooseResolver(resolve: DnsResolve): LooseDnsResolve {
  return resolve as unknown as LooseDnsResolve;
}
