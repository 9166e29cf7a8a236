/**
 * SPF records (RFC 7208): parse terms with qualifiers, validate syntax (domains, macros, IP/CIDR), build a record.
 */
import { isDomainName } from './domainName.ts';
import { formatNetwork, parseIpNetwork, ipFamily, type IpNetwork } from './ipAddress.ts';
import { parseResult, type FieldIssue, type ParseResult } from './issues.ts';

export type SpfQualifier = '+' | '-' | '~' | '?';
/** The terminal `all` as the v1 interface writes it. */
export type SpfAll = '-all' | '~all' | '?all' | '+all';
export const SPF_ALL_VALUES: readonly SpfAll[] = ['-all', '~all', '?all', '+all'];

export const SPF_MECHANISMS = ['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists'] as const;
export type SpfMechanismName = (typeof SPF_MECHANISMS)[number];

/** Mechanisms that cost one DNS lookup each (RFC 7208 §4.6.4); the redirect modifier costs one too. */
export const SPF_LOOKUP_MECHANISMS: ReadonlySet<SpfMechanismName> = new Set([
  'include',
  'a',
  'mx',
  'ptr',
  'exists',
]);

/** Longest record we accept without a warning: bigger TXT answers risk UDP truncation (RFC 7208 §3.4). */
const SAFE_RECORD_LENGTH = 450;

export interface SpfMechanism {
  kind: 'mechanism';
  qualifier: SpfQualifier;
  name: SpfMechanismName;
  /** Target domain-spec for include, exists, a, mx, ptr (absent when the current domain is meant). */
  domain?: string;
  /** For ip4/ip6: the canonical network. */
  network?: IpNetwork;
  /** For a/mx: the IPv4 and IPv6 prefix lengths applied to the addresses found. */
  cidr4?: number;
  cidr6?: number;
  /** True when the domain-spec contains macros (%{...}); such terms cannot be resolved without a message. */
  macro: boolean;
  raw: string;
}

export interface SpfModifier {
  kind: 'modifier';
  name: string;
  value: string;
  raw: string;
}

export type SpfTerm = SpfMechanism | SpfModifier;

export interface SpfRecord {
  terms: SpfTerm[];
  /** The terminal all mechanism, or null when there is none. */
  all: SpfAll | null;
  redirect: string | null;
  exp: string | null;
  /** DNS-querying terms that evaluation can reach in this record alone (not counting nested records). */
  lookup_terms: number;
}

const MACRO = /%\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}|%%|%_|%-/gi;
const MODIFIER = /^([a-z][a-z0-9_.-]*)=(.*)$/i;
const MECHANISM = /^([+\-~?]?)([a-z0-9]+)(.*)$/i;
const DUAL_CIDR = /^(?::(.+?))?(?:\/(\d+))?(?:\/\/(\d+))?$/;

/** Checks a domain-spec (RFC 7208 §7.1): a host name, or a macro string ending in a top label or a macro. */
export function checkDomainSpec(spec: string): string | null {
  if (spec === '') return 'the domain is empty';
  if (!spec.includes('%')) {
    return isDomainName(spec, { allowUnderscore: true }) ? null : `"${spec}" is not a valid domain name`;
  }
  const literal = spec.replace(MACRO, 'x');
  if (literal.includes('%')) return `"${spec}" contains an invalid macro`;
  if (/[^\x21-\x7e]/.test(literal)) return `"${spec}" contains characters not allowed in a domain-spec`;
  if (/\}$/.test(spec)) return null;
  const top = spec.replace(/\.$/, '').split('.').pop() ?? '';
  return /[a-z]/i.test(top) && !top.includes('%')
    ? null
    : `"${spec}" must end with a top-level label or a macro`;
}

function qualifierOf(q: string): SpfQualifier {
  return (q === '' ? '+' : q) as SpfQualifier;
}

function parseMechanism(raw: string): { term: SpfMechanism } | { error: FieldIssue } {
  const m = MECHANISM.exec(raw);
  const name = m?.[2]?.toLowerCase() ?? '';
  if (!m || !(SPF_MECHANISMS as readonly string[]).includes(name)) {
    return { error: { field: name || raw, message: `"${raw}" is not an SPF mechanism` } };
  }
  const mech = name as SpfMechanismName;
  const qualifier = qualifierOf(m[1] ?? '');
  const rest = m[3] ?? '';
  const fail = (message: string) => ({ error: { field: mech, message: `${raw}: ${message}` } });
  const base = { kind: 'mechanism' as const, qualifier, name: mech, raw, macro: false };
  switch (mech) {
    case 'all':
      return rest === '' ? { term: base } : fail('all takes no value');
    case 'ip4':
    case 'ip6': {
      if (!rest.startsWith(':'))
        return fail(
          `${mech} needs an address, as in ${mech}:${mech === 'ip4' ? '192.0.2.0/24' : '2001:db8::/32'}`,
        );
      const parsed = parseIpNetwork(rest.slice(1), mech === 'ip4' ? 4 : 6);
      return 'error' in parsed ? fail(parsed.error) : { term: { ...base, network: parsed.network } };
    }
    case 'include':
    case 'exists': {
      if (!rest.startsWith(':') || rest.length === 1)
        return fail(`${mech} needs a domain, as in ${mech}:_spf.example.com`);
      const domain = rest.slice(1);
      const problem = checkDomainSpec(domain);
      return problem ? fail(problem) : { term: { ...base, domain, macro: domain.includes('%') } };
    }
    case 'a':
    case 'mx':
    case 'ptr': {
      const c = DUAL_CIDR.exec(rest);
      if (!c || (mech === 'ptr' && (c[2] !== undefined || c[3] !== undefined)))
        return fail('malformed value');
      const term: SpfMechanism = { ...base };
      if (c[1] !== undefined) {
        const problem = checkDomainSpec(c[1]);
        if (problem) return fail(problem);
        term.domain = c[1];
        term.macro = c[1].includes('%');
      }
      for (const [group, key, max] of [[c[2], 'cidr4', 32] as const, [c[3], 'cidr6', 128] as const]) {
        if (group === undefined) continue;
        if (!/^(0|[1-9]\d{0,2})$/.test(group) || Number(group) > max) {
          return fail(`"/${group}" is not a prefix length from 0 to ${max}`);
        }
        term[key] = Number(group);
      }
      return { term };
    }
  }
}

/**
 * Parses an SPF TXT record. Errors are keyed by mechanism or modifier name (`v`, `ip4`, `include`, `redirect`…),
 * `record` for record-wide syntax and `lookups` when the record alone has more than 10 DNS-querying terms.
 */
export function parseSpfRecord(text: string): ParseResult<SpfRecord> {
  const { value, errors, warnings } = analyzeSpfRecord(text);
  return parseResult(value, errors, warnings);
}

/** Like parseSpfRecord, but keeps the parsed terms even when there are errors (null only without v=spf1). */
export function analyzeSpfRecord(text: string): {
  value: SpfRecord | null;
  errors: FieldIssue[];
  warnings: FieldIssue[];
} {
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const record = text.trim();
  const words = record.split(/\s+/).filter((w) => w !== '');
  if (words[0]?.toLowerCase() !== 'v=spf1') {
    return {
      value: null,
      errors: [{ field: 'v', message: 'an SPF record must start with v=spf1' }],
      warnings: [],
    };
  }
  if (/[^\x20-\x7e]/.test(record)) {
    errors.push({ field: 'record', message: 'the record contains non-ASCII or control characters' });
  }
  const terms: SpfTerm[] = [];
  for (const word of words.slice(1)) {
    const mod = MODIFIER.exec(word);
    if (mod && !/[:/]/.test(mod[1] ?? '')) {
      const name = (mod[1] ?? '').toLowerCase();
      const value = mod[2] ?? '';
      if (name === 'redirect' || name === 'exp') {
        if (terms.some((t) => t.kind === 'modifier' && t.name === name)) {
          errors.push({ field: name, message: `${name} may appear only once` });
          continue;
        }
        const problem = checkDomainSpec(value);
        if (problem) errors.push({ field: name, message: `${word}: ${problem}` });
      } else if (/[^\x21-\x7e]/.test(value) || value.replace(MACRO, '').includes('%')) {
        errors.push({ field: name, message: `${word}: invalid modifier value` });
      } else {
        warnings.push({ field: name, message: `unknown modifier ${name} is ignored` });
      }
      terms.push({ kind: 'modifier', name, value, raw: word });
      continue;
    }
    const parsed = parseMechanism(word);
    if ('error' in parsed) errors.push(parsed.error);
    else terms.push(parsed.term);
  }

  const mechanisms = terms.filter((t): t is SpfMechanism => t.kind === 'mechanism');
  const allIndex = mechanisms.findIndex((m) => m.name === 'all');
  const allTerm = allIndex >= 0 ? mechanisms[allIndex] : undefined;
  const reachable = allIndex >= 0 ? mechanisms.slice(0, allIndex + 1) : mechanisms;
  const modifier = (name: string) =>
    terms.find((t): t is SpfModifier => t.kind === 'modifier' && t.name === name);
  const redirect = modifier('redirect')?.value ?? null;
  const lookupTerms =
    reachable.filter((m) => SPF_LOOKUP_MECHANISMS.has(m.name)).length + (redirect && !allTerm ? 1 : 0);

  if (allIndex >= 0 && allIndex < mechanisms.length - 1) {
    warnings.push({ field: 'all', message: 'mechanisms after all are never evaluated' });
  }
  if (redirect && allTerm)
    warnings.push({ field: 'redirect', message: 'redirect is ignored because the record has all' });
  if (!redirect && !allTerm) {
    warnings.push({
      field: 'all',
      message: 'without all or redirect, unmatched senders get a neutral result',
    });
  }
  if (allTerm?.qualifier === '+')
    warnings.push({ field: 'all', message: '+all authorizes every server on the internet' });
  if (mechanisms.some((m) => m.name === 'ptr')) {
    warnings.push({ field: 'ptr', message: 'ptr is slow and unreliable; RFC 7208 §5.5 says not to use it' });
  }
  if (lookupTerms > 10) {
    errors.push({
      field: 'lookups',
      message: `${lookupTerms} DNS-querying terms exceed the limit of 10 (RFC 7208 §4.6.4)`,
    });
  }
  if (record.length > SAFE_RECORD_LENGTH) {
    warnings.push({
      field: 'record',
      message: `${record.length} characters; answers this large may be truncated over UDP`,
    });
  }
  const value: SpfRecord = {
    terms,
    all: allTerm ? (`${allTerm.qualifier}all` as SpfAll) : null,
    redirect,
    exp: modifier('exp')?.value ?? null,
    lookup_terms: lookupTerms,
  };
  return { value, errors, warnings };
}

/** What a hosted SPF record is made of: the v1 interface's includes, IP actions and terminal all. */
export interface SpfParts {
  /** IP addresses or networks (either family) to reject: written first as -ip4/-ip6 so they win. */
  reject_ips?: string[];
  ip4?: string[];
  ip6?: string[];
  a?: boolean;
  mx?: boolean;
  includes?: string[];
  redirect?: string;
  all?: SpfAll;
}

/**
 * Builds `v=spf1 [-ip…] [ip4…] [ip6…] [a] [mx] [include…] [redirect=…|all]` from parts, validating each part.
 * Errors name the part and index (`ip4[1]`, `includes[0]`); duplicates are dropped with a warning.
 */
export function buildSpfRecord(parts: SpfParts): ParseResult<string> {
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const out: string[] = ['v=spf1'];
  const seen = new Set<string>();
  const push = (field: string, term: string) => {
    if (seen.has(term)) {
      warnings.push({ field, message: `${term} is listed twice; kept once` });
      return;
    }
    seen.add(term);
    out.push(term);
  };
  (parts.reject_ips ?? []).forEach((ip, i) => {
    const family = ipFamily(ip.trim().split('/')[0] ?? '');
    const parsed = parseIpNetwork(ip.trim(), family ?? undefined);
    if ('error' in parsed) errors.push({ field: `reject_ips[${i}]`, message: parsed.error });
    else push(`reject_ips[${i}]`, `-ip${parsed.network.family}:${formatNetwork(parsed.network)}`);
  });
  for (const family of [4, 6] as const) {
    const key = family === 4 ? 'ip4' : 'ip6';
    (parts[key] ?? []).forEach((ip, i) => {
      const parsed = parseIpNetwork(ip.trim(), family);
      if ('error' in parsed) errors.push({ field: `${key}[${i}]`, message: parsed.error });
      else push(`${key}[${i}]`, `${key}:${formatNetwork(parsed.network)}`);
    });
  }
  if (parts.a) out.push('a');
  if (parts.mx) out.push('mx');
  (parts.includes ?? []).forEach((inc, i) => {
    const domain = inc.trim().replace(/^include:/i, '');
    const problem = checkDomainSpec(domain);
    if (problem) errors.push({ field: `includes[${i}]`, message: problem });
    else push(`includes[${i}]`, `include:${domain.toLowerCase()}`);
  });
  if (parts.redirect && parts.all) {
    errors.push({
      field: 'redirect',
      message: 'use either redirect or all: redirect is ignored when all is present',
    });
  } else if (parts.redirect) {
    const problem = checkDomainSpec(parts.redirect.trim());
    if (problem) errors.push({ field: 'redirect', message: problem });
    else out.push(`redirect=${parts.redirect.trim().toLowerCase()}`);
  } else if (parts.all !== undefined) {
    if (SPF_ALL_VALUES.includes(parts.all)) out.push(parts.all);
    else
      errors.push({
        field: 'all',
        message: `"${String(parts.all)}" is not one of ${SPF_ALL_VALUES.join(', ')}`,
      });
  }
  const record = out.join(' ');
  if (errors.length === 0) {
    // Record-level rules (lookup count, length, +all) come from the parser so both paths agree.
    const parsed = parseSpfRecord(record);
    errors.push(...parsed.errors);
    warnings.push(...parsed.warnings);
  }
  return parseResult(record, errors, warnings);
}
