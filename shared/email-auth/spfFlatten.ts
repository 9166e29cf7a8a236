/**
 * SPF flattening: resolves a domain's SPF record recursively, counting DNS lookups the way a receiver does
 * (RFC 7208 §4.6.4), and writes the equivalent record made of ip4/ip6 terms only.
 */
import { dnsErrorCode, isVoidAnswer, type DnsResolve, type MxRecord } from './dns.ts';
import { formatNetwork, toNetwork, type IpNetwork } from './ipAddress.ts';
import { normalizeDomain, recordLocation } from './protocols.ts';
import {
  analyzeSpfRecord,
  SPF_LOOKUP_MECHANISMS,
  type SpfAll,
  type SpfMechanism,
  type SpfQualifier,
  type SpfRecord,
} from './spfRecord.ts';

export interface SpfFlattenOptions {
  /** DNS-querying terms allowed (RFC 7208: 10). */
  lookupLimit?: number;
  /** Void lookups allowed (RFC 7208: 2). */
  voidLookupLimit?: number;
  /** MX names looked up per mx mechanism (RFC 7208: 10). */
  mxLimit?: number;
  /** Hard stop for hostile trees: total DNS queries made by the flattener itself. */
  maxQueries?: number;
}

/** A problem met while flattening, with the domain whose record caused it. */
export interface SpfFlattenIssue {
  code:
    | 'no_record'
    | 'multiple_records'
    | 'syntax'
    | 'loop'
    | 'dns_error'
    | 'too_many_lookups'
    | 'too_many_void_lookups'
    | 'mx_too_many'
    | 'too_complex'
    | 'kept_term'
    | 'negative_in_include'
    | 'long_record'
    | 'void_lookup';
  message: string;
  domain: string;
}

export interface SpfFlattenResult {
  domain: string;
  /** The SPF record published at the domain. */
  record: string | null;
  /** The equivalent record of ip4/ip6 terms (plus terms that cannot be flattened), or null when resolution failed. */
  flattened_record: string | null;
  /** Networks authorized to send (pass qualifier), canonical and deduplicated, in evaluation order. */
  ipv4: string[];
  ipv6: string[];
  /** The terminal all in effect (from the record or its redirect target). */
  all: SpfAll | null;
  /** Terms kept verbatim because they cannot be resolved without a message (macros, ptr, exists). */
  kept_terms: string[];
  lookup_count: number;
  lookup_limit: number;
  void_lookup_count: number;
  void_lookup_limit: number;
  /** Both counts within their limits. */
  within_limit: boolean;
  /**
   * ok: resolved without error; none: the domain publishes no SPF record; permerror: receivers would
   * fail the record (syntax, loop, limits); temperror: a DNS failure made the result incomplete.
   */
  status: 'ok' | 'none' | 'permerror' | 'temperror';
  warnings: SpfFlattenIssue[];
  errors: SpfFlattenIssue[];
  /** Every SPF record read, in resolution order. */
  records: { domain: string; record: string }[];
}

// Errors that leave the flattened record incomplete or wrong, as opposed to limit overruns, which flattening cures.
const FATAL = new Set<SpfFlattenIssue['code']>([
  'no_record',
  'multiple_records',
  'syntax',
  'loop',
  'dns_error',
  'too_complex',
]);
const SAFE_RECORD_LENGTH = 450;

class TooComplex extends Error {}

interface Entry {
  qualifier: SpfQualifier;
  network: IpNetwork;
}

/** Resolves `domain`'s SPF tree and returns its flattened equivalent with lookup accounting; never throws. */
export async function flattenSpf(
  domain: string,
  resolve: DnsResolve,
  options: SpfFlattenOptions = {},
): Promise<SpfFlattenResult> {
  const lookupLimit = options.lookupLimit ?? 10;
  const voidLimit = options.voidLookupLimit ?? 2;
  const mxLimit = options.mxLimit ?? 10;
  const maxQueries = options.maxQueries ?? 200;
  const top = normalizeDomain(domain);

  let lookups = 0;
  let voids = 0;
  let queries = 0;
  let finalAll: SpfAll | null = null;
  const entries = new Map<string, Entry>();
  const kept: string[] = [];
  const errors: SpfFlattenIssue[] = [];
  const warnings: SpfFlattenIssue[] = [];
  const records: { domain: string; record: string }[] = [];

  const error = (code: SpfFlattenIssue['code'], message: string, d: string) =>
    errors.push({ code, message, domain: d });
  const warn = (code: SpfFlattenIssue['code'], message: string, d: string) => {
    if (!warnings.some((w) => w.code === code && w.domain === d && w.message === message))
      warnings.push({ code, message, domain: d });
  };

  const countLookup = (d: string) => {
    lookups++;
    if (lookups === lookupLimit + 1) {
      error('too_many_lookups', `more than ${lookupLimit} DNS lookups; receivers return permerror`, d);
    }
  };
  const countVoid = (d: string, name: string) => {
    voids++;
    warn('void_lookup', `${name} has no records (void lookup)`, d);
    if (voids === voidLimit + 1) {
      error('too_many_void_lookups', `more than ${voidLimit} void lookups; receivers return permerror`, d);
    }
  };

  // One DNS query with the flattener's own safety budget; void answers come back as null.
  async function query<T>(run: () => Promise<T>): Promise<T | null> {
    if (++queries > maxQueries) throw new TooComplex();
    try {
      return await run();
    } catch (err) {
      if (isVoidAnswer(err)) return null;
      throw err;
    }
  }

  const addNetwork = (qualifier: SpfQualifier, network: IpNetwork | null) => {
    if (!network) return;
    const key = `${network.family}|${formatNetwork(network)}`;
    // First match wins in SPF, so a later duplicate can never change the outcome.
    if (!entries.has(key)) entries.set(key, { qualifier, network });
  };

  const addAddresses = (
    qualifier: SpfQualifier,
    addresses: string[],
    family: 4 | 6,
    prefix: number | undefined,
  ) => {
    for (const address of addresses)
      addNetwork(qualifier, toNetwork(family, address, prefix ?? (family === 4 ? 32 : 128)));
  };

  async function addresses(name: string): Promise<{ v4: string[]; v6: string[]; void: boolean }> {
    const [v4, v6] = await Promise.all([query(() => resolve(name, 'A')), query(() => resolve(name, 'AAAA'))]);
    return { v4: v4 ?? [], v6: v6 ?? [], void: v4 === null && v6 === null };
  }

  async function fetchRecord(d: string, viaTerm: string | null): Promise<SpfRecord | null> {
    const txt = await query(() => resolve(recordLocation('spf', d).name, 'TXT'));
    if (txt === null && viaTerm) countVoid(d, d);
    const found = (txt ?? [])
      .map((s) => s.join(''))
      .filter((r) => recordLocation('spf', d).selector.test(r.trim()));
    if (found.length === 0) {
      error(
        'no_record',
        viaTerm ? `${viaTerm} points to ${d}, which has no SPF record` : `${d} publishes no SPF record`,
        d,
      );
      return null;
    }
    if (found.length > 1) {
      error('multiple_records', `${d} publishes ${found.length} SPF records; receivers return permerror`, d);
      return null;
    }
    const text = found[0] ?? '';
    records.push({ domain: d, record: text });
    const parsed = analyzeSpfRecord(text);
    // The per-record lookup limit is judged here over the whole tree, so that error is not a syntax error.
    const syntax = parsed.errors.filter((e) => e.field !== 'lookups');
    if (!parsed.value || syntax.length > 0) {
      error('syntax', `${d}: ${syntax.map((e) => e.message).join('; ')}`, d);
      return null;
    }
    return parsed.value;
  }

  const keep = (qualifier: SpfQualifier, term: SpfMechanism, d: string, why: string) => {
    const text = `${qualifier === '+' ? '' : qualifier}${term.raw.replace(/^[+\-~?]/, '')}`;
    if (!kept.includes(text)) kept.push(text);
    warn('kept_term', `${term.raw} ${why}; kept as written`, d);
  };

  /**
   * Evaluates record `rec` of domain `d`. `qualifier` is the qualifier its matches carry in the flattened
   * record, or null when matches cannot make the top-level result (they only cost lookups).
   * `topLevel` is true for the published record and its redirect chain, where each term's own qualifier counts.
   */
  async function evaluate(
    rec: SpfRecord,
    d: string,
    path: string[],
    qualifier: SpfQualifier | null,
    topLevel: boolean,
  ) {
    let reachedAll = false;
    for (const term of rec.terms) {
      if (term.kind !== 'mechanism') continue;
      // Inside an include only a pass match makes the include match; fail/softfail/neutral terms just stop it.
      const collect = topLevel ? term.qualifier : term.qualifier === '+' ? qualifier : null;
      if (!topLevel && term.qualifier !== '+' && term.name !== 'all') {
        warn(
          'negative_in_include',
          `${term.raw} in an included record cannot be expressed in a flattened record; ignored`,
          d,
        );
      }
      if (SPF_LOOKUP_MECHANISMS.has(term.name)) countLookup(d);
      const target = normalizeDomain(term.domain ?? d);
      switch (term.name) {
        case 'all':
          if (topLevel) finalAll = `${term.qualifier}all` as SpfAll;
          reachedAll = true;
          break;
        case 'ip4':
        case 'ip6':
          if (collect) addNetwork(collect, term.network ?? null);
          break;
        case 'a': {
          if (term.macro) {
            if (collect) keep(collect, term, d, 'uses macros');
            break;
          }
          const found = await addresses(target);
          if (found.void) countVoid(d, target);
          if (collect) {
            addAddresses(collect, found.v4, 4, term.cidr4);
            addAddresses(collect, found.v6, 6, term.cidr6);
          }
          break;
        }
        case 'mx': {
          if (term.macro) {
            if (collect) keep(collect, term, d, 'uses macros');
            break;
          }
          const mx: MxRecord[] | null = await query(() => resolve(target, 'MX'));
          if (mx === null) {
            countVoid(d, target);
            break;
          }
          // A null MX (RFC 7505) is a single "." exchange and names no host.
          const hosts = [...mx]
            .sort((x, y) => x.priority - y.priority)
            .filter((m) => m.exchange && m.exchange !== '.');
          if (hosts.length > mxLimit) {
            error(
              'mx_too_many',
              `${term.raw} finds ${hosts.length} MX hosts; more than ${mxLimit} is a permerror`,
              d,
            );
          }
          for (const host of hosts.slice(0, mxLimit)) {
            const found = await addresses(normalizeDomain(host.exchange));
            if (collect) {
              addAddresses(collect, found.v4, 4, term.cidr4);
              addAddresses(collect, found.v6, 6, term.cidr6);
            }
          }
          break;
        }
        case 'ptr':
          if (collect) keep(collect, term, d, 'depends on the sender address');
          break;
        case 'exists':
          if (!term.macro) {
            const found = await query(() => resolve(target, 'A'));
            if (found === null) countVoid(d, target);
          }
          if (collect) keep(collect, term, d, 'depends on the message');
          break;
        case 'include': {
          if (term.macro) {
            if (collect) keep(collect, term, d, 'uses macros');
            break;
          }
          if (path.includes(target)) {
            error('loop', `${term.raw} loops back to ${target} (${[...path, target].join(' → ')})`, d);
            break;
          }
          const sub = await fetchRecord(target, term.raw);
          if (sub) await evaluate(sub, target, [...path, target], collect, false);
          break;
        }
      }
      if (reachedAll) break;
    }
    if (reachedAll || !rec.redirect) return;
    countLookup(d);
    const spec = rec.redirect;
    if (spec.includes('%')) {
      warn('kept_term', `redirect=${spec} uses macros and cannot be flattened`, d);
      return;
    }
    const target = normalizeDomain(spec);
    if (path.includes(target)) {
      error('loop', `redirect=${spec} loops back to ${target} (${[...path, target].join(' → ')})`, d);
      return;
    }
    const sub = await fetchRecord(target, `redirect=${spec}`);
    if (sub) await evaluate(sub, target, [...path, target], qualifier, topLevel);
  }

  let published: string | null = null;
  try {
    const rec = await fetchRecord(top, null);
    published = records[0]?.record ?? null;
    if (rec) await evaluate(rec, top, [top], '+', true);
  } catch (err) {
    if (err instanceof TooComplex) error('too_complex', `gave up after ${maxQueries} DNS queries`, top);
    else error('dns_error', `DNS lookup failed (${dnsErrorCode(err) ?? String(err)}); try again later`, top);
  }

  const list = [...entries.values()];
  const format = (e: Entry) =>
    `${e.qualifier === '+' ? '' : e.qualifier}ip${e.network.family}:${formatNetwork(e.network)}`;
  // IPv4 and IPv6 terms never match the same client, so grouping by family keeps first-match order where it matters.
  const terms = [
    ...list.filter((e) => e.network.family === 4),
    ...list.filter((e) => e.network.family === 6),
  ].map(format);
  const fatal = errors.some((e) => FATAL.has(e.code));
  const flattened =
    published && !fatal ? ['v=spf1', ...terms, ...kept, ...(finalAll ? [finalAll] : [])].join(' ') : null;
  if (flattened && flattened.length > SAFE_RECORD_LENGTH) {
    warn(
      'long_record',
      `the flattened record has ${flattened.length} characters; split it across included records`,
      top,
    );
  }
  const pass = (family: 4 | 6) =>
    list
      .filter((e) => e.qualifier === '+' && e.network.family === family)
      .map((e) => formatNetwork(e.network));
  const noRecord = published === null && errors.some((e) => e.code === 'no_record' && e.domain === top);
  return {
    domain: top,
    record: published,
    flattened_record: flattened,
    ipv4: pass(4),
    ipv6: pass(6),
    all: finalAll,
    kept_terms: kept,
    lookup_count: lookups,
    lookup_limit: lookupLimit,
    void_lookup_count: voids,
    void_lookup_limit: voidLimit,
    within_limit: lookups <= lookupLimit && voids <= voidLimit,
    status: noRecord
      ? 'none'
      : errors.some((e) => e.code === 'dns_error')
        ? 'temperror'
        : errors.length > 0
          ? 'permerror'
          : 'ok',
    warnings,
    errors,
    records,
  };
}
