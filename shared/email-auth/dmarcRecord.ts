/**
 * DMARC policy records (RFC 7489 §6.3): parse the TXT record, validate form input tag by tag, build the record.
 */
import { isEmailAddress } from './domainName.ts';
import { parseResult, type FieldIssue, type ParseResult } from './issues.ts';
import { splitTagList } from './tagList.ts';

/** Policies from weakest to strongest. */
export const DMARC_POLICIES = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof DMARC_POLICIES)[number];
export type DmarcAlignment = 'r' | 's';

/** The RFC 7489 tags in the order the builder writes them. */
export const DMARC_TAGS = ['v', 'p', 'sp', 'pct', 'adkim', 'aspf', 'rua', 'ruf', 'fo', 'rf', 'ri'] as const;
export type DmarcTagName = (typeof DMARC_TAGS)[number];

/** A valid DMARC record; absent optional tags take the RFC defaults (see effectiveDmarcPolicy). */
export interface DmarcRecord {
  v: 'DMARC1';
  p: DmarcPolicy;
  sp?: DmarcPolicy;
  pct?: number;
  adkim?: DmarcAlignment;
  aspf?: DmarcAlignment;
  /** Aggregate report URIs as written, e.g. `mailto:dmarc@example.com!10m`. */
  rua?: string[];
  /** Failure report URIs. */
  ruf?: string[];
  /** Failure reporting options, each of 0, 1, d, s. */
  fo?: string[];
  /** Failure report formats; `afrf` is the only registered one. */
  rf?: string[];
  /** Requested aggregate report interval in seconds. */
  ri?: number;
}

/** Every tag resolved to its value or RFC default. */
export type EffectiveDmarcPolicy = Required<Omit<DmarcRecord, 'rua' | 'ruf'>> & {
  rua: string[];
  ruf: string[];
};

/** Form or API input: each tag as a string, number or list; empty values mean "not set". */
export type DmarcTagsInput = Partial<Record<DmarcTagName, unknown>>;

type Checked<T> = { value: T } | { error: string };

const FO_VALUES = new Set(['0', '1', 'd', 's']);
const RF_VALUES = new Set(['afrf']);
const UINT32_MAX = 4294967295;

/** Orders policies: none (0) < quarantine (1) < reject (2). */
export function policyStrength(policy: DmarcPolicy): 0 | 1 | 2 {
  return DMARC_POLICIES.indexOf(policy) as 0 | 1 | 2;
}

/** True when `value` is one of none, quarantine, reject. */
export function isDmarcPolicy(value: unknown): value is DmarcPolicy {
  return typeof value === 'string' && (DMARC_POLICIES as readonly string[]).includes(value);
}

function checkPolicy(raw: string): Checked<DmarcPolicy> {
  const v = raw.toLowerCase();
  return isDmarcPolicy(v) ? { value: v } : { error: `"${raw}" is not a policy (none, quarantine or reject)` };
}

function checkAlignment(raw: string): Checked<DmarcAlignment> {
  const v = raw.toLowerCase();
  return v === 'r' || v === 's' ? { value: v } : { error: `"${raw}" is not an alignment mode (r or s)` };
}

function checkUint(raw: string, max: number, what: string): Checked<number> {
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > max) return { error: `"${raw}" is not ${what}` };
  return { value: Number(raw) };
}

/** Checks one report URI: `mailto:` + address, optionally `!<size>[k|m|g|t]`. Returns an error message or null. */
export function checkDmarcReportUri(uri: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*):(.*)$/i.exec(uri);
  if (!m) return `"${uri}" is not a URI; write mailto:address@example.com`;
  if (m[1]?.toLowerCase() !== 'mailto') {
    return `"${uri}" is not a mailto: URI; receivers send DMARC reports only by e-mail`;
  }
  const rest = m[2] ?? '';
  const bang = rest.lastIndexOf('!');
  const encodedAddress = bang >= 0 ? rest.slice(0, bang) : rest;
  if (bang >= 0 && !/^\d+[kmgt]?$/i.test(rest.slice(bang + 1))) {
    return `"${rest.slice(bang + 1)}" in "${uri}" is not a size limit such as 10m`;
  }
  let address: string;
  try {
    address = decodeURIComponent(encodedAddress);
  } catch {
    return `"${uri}" has a malformed %-escape`;
  }
  if (address.includes('?')) return `"${uri}" must not carry mailto: header fields`;
  return isEmailAddress(address) ? null : `"${address}" in "${uri}" is not an e-mail address`;
}

function checkList(raw: string, sep: string, allowed: Set<string>, what: string): Checked<string[]> {
  const items = raw.split(sep).map((s) => s.trim().toLowerCase());
  const bad = items.filter((i) => !allowed.has(i));
  if (bad.length > 0) return { error: `${bad.map((b) => `"${b}"`).join(', ')} not allowed in ${what}` };
  return { value: items };
}

/** Checks one tag's textual value (as written in a record) and returns its typed value or an error message. */
function checkTag(name: DmarcTagName, raw: string): Checked<unknown> {
  if (raw === '') return { error: `${name} has an empty value` };
  switch (name) {
    case 'v':
      // RFC 7489 §6.3: "The value of this tag MUST match precisely".
      return raw === 'DMARC1' ? { value: raw } : { error: `version must be exactly DMARC1, not "${raw}"` };
    case 'p':
    case 'sp':
      return checkPolicy(raw);
    case 'adkim':
    case 'aspf':
      return checkAlignment(raw);
    case 'pct':
      return checkUint(raw, 100, 'a percentage from 0 to 100');
    case 'ri':
      return checkUint(raw, UINT32_MAX, 'a number of seconds');
    case 'fo':
      return checkList(raw, ':', FO_VALUES, 'fo (use 0, 1, d, s separated by colons)');
    case 'rf':
      return checkList(raw, ':', RF_VALUES, 'rf (the registered format is afrf)');
    case 'rua':
    case 'ruf': {
      const uris = raw.split(',').map((u) => u.trim());
      const problems = uris.map(checkDmarcReportUri).filter((p): p is string => p !== null);
      return problems.length > 0 ? { error: problems.join('; ') } : { value: uris };
    }
  }
}

function isDmarcTag(name: string): name is DmarcTagName {
  return (DMARC_TAGS as readonly string[]).includes(name);
}

// Advice that does not make the record invalid but that an admin should see.
function adviceFor(record: DmarcRecord): FieldIssue[] {
  const warnings: FieldIssue[] = [];
  if (record.fo && !record.ruf) {
    warnings.push({ field: 'fo', message: 'fo has no effect without a ruf address' });
  }
  for (const tag of ['rua', 'ruf'] as const) {
    if ((record[tag]?.length ?? 0) > 2) {
      warnings.push({
        field: tag,
        message: `receivers need only send to two ${tag} addresses; later ones may be ignored`,
      });
    }
  }
  return warnings;
}

function assemble(values: Partial<Record<DmarcTagName, unknown>>): DmarcRecord {
  const record: DmarcRecord = { v: 'DMARC1', p: values.p as DmarcPolicy };
  for (const tag of DMARC_TAGS) {
    if (tag !== 'v' && tag !== 'p' && values[tag] !== undefined) {
      (record as unknown as Record<string, unknown>)[tag] = values[tag];
    }
  }
  return record;
}

/** Parses a DMARC TXT record; errors and warnings are keyed by tag name. */
export function parseDmarcRecord(text: string): ParseResult<DmarcRecord> {
  const { tags, errors } = splitTagList(text.trim());
  const warnings: FieldIssue[] = [];
  const values: Partial<Record<DmarcTagName, unknown>> = {};
  if (tags[0]?.name !== 'v') {
    errors.unshift({ field: 'v', message: 'a DMARC record must start with v=DMARC1' });
  }
  for (const tag of tags) {
    if (!isDmarcTag(tag.name)) {
      warnings.push({ field: tag.name, message: `unknown tag ${tag.name} is ignored by receivers` });
      continue;
    }
    if (tag.name === 'v' && tag.index !== 0) {
      errors.push({ field: 'v', message: 'v=DMARC1 must be the first tag' });
      continue;
    }
    const checked = checkTag(tag.name, tag.value);
    if ('error' in checked) errors.push({ field: tag.name, message: checked.error });
    else values[tag.name] = checked.value;
  }
  if (!tags.some((t) => t.name === 'p')) {
    errors.push({ field: 'p', message: 'the policy tag p is required' });
  }
  const record = errors.length === 0 ? assemble(values) : null;
  if (record) warnings.push(...adviceFor(record));
  return parseResult(record, errors, warnings);
}

// Turns one input value into the text it would have in a record, or explains why it cannot.
function inputToText(name: DmarcTagName, value: unknown): Checked<string> | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && (name === 'pct' || name === 'ri')) {
    return Number.isInteger(value) ? { value: String(value) } : { error: `${name} must be a whole number` };
  }
  if (Array.isArray(value) && ['rua', 'ruf', 'fo', 'rf'].includes(name)) {
    if (value.length === 0) return null;
    if (!value.every((v) => typeof v === 'string')) return { error: `${name} must be a list of strings` };
    return { value: value.map((v: string) => v.trim()).join(name === 'rua' || name === 'ruf' ? ',' : ':') };
  }
  if (typeof value !== 'string') return { error: `${name} must be a string` };
  return { value: value.trim() };
}

/**
 * Validates form/API input tag by tag. Array inputs (rua, ruf) report problems per item as `rua[1]`.
 * `v` may be omitted; `p` is required.
 */
export function validateDmarcTags(input: DmarcTagsInput): ParseResult<DmarcRecord> {
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const values: Partial<Record<DmarcTagName, unknown>> = { v: 'DMARC1' };
  for (const key of Object.keys(input)) {
    if (!isDmarcTag(key)) warnings.push({ field: key, message: `unknown tag ${key} is ignored` });
  }
  for (const tag of DMARC_TAGS) {
    const raw = input[tag];
    if (Array.isArray(raw) && (tag === 'rua' || tag === 'ruf')) {
      raw.forEach((item, i) => {
        const problem = typeof item === 'string' ? checkDmarcReportUri(item.trim()) : 'must be a string';
        if (problem) errors.push({ field: `${tag}[${i}]`, message: problem });
      });
    }
    const text = inputToText(tag, raw);
    if (text === null) continue;
    if ('error' in text) {
      errors.push({ field: tag, message: text.error });
      continue;
    }
    const checked = checkTag(tag, text.value);
    if ('error' in checked) {
      // Per-item errors for list inputs were already reported above.
      if (!(Array.isArray(raw) && (tag === 'rua' || tag === 'ruf')))
        errors.push({ field: tag, message: checked.error });
    } else {
      values[tag] = checked.value;
    }
  }
  if (values.p === undefined && !errors.some((e) => e.field === 'p')) {
    errors.push({ field: 'p', message: 'the policy p is required' });
  }
  const record = errors.length === 0 ? assemble(values) : null;
  if (record) warnings.push(...adviceFor(record));
  return parseResult(record, errors, warnings);
}

/** Writes a record with its tags in canonical order (v, p, sp, pct, adkim, aspf, rua, ruf, fo, rf, ri). */
export function buildDmarcRecord(record: DmarcRecord): string {
  const parts: string[] = [];
  for (const tag of DMARC_TAGS) {
    const value = record[tag];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      parts.push(`${tag}=${value.join(tag === 'fo' || tag === 'rf' ? ':' : ',')}`);
    } else {
      parts.push(`${tag}=${value}`);
    }
  }
  return parts.join('; ');
}

/** The policy a receiver applies: every tag resolved to its value or RFC 7489 default. */
export function effectiveDmarcPolicy(record: DmarcRecord): EffectiveDmarcPolicy {
  return {
    v: 'DMARC1',
    p: record.p,
    sp: record.sp ?? record.p,
    pct: record.pct ?? 100,
    adkim: record.adkim ?? 'r',
    aspf: record.aspf ?? 'r',
    rua: record.rua ?? [],
    ruf: record.ruf ?? [],
    fo: record.fo ?? ['0'],
    rf: record.rf ?? ['afrf'],
    ri: record.ri ?? 86400,
  };
}
