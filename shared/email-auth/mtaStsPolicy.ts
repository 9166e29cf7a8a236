/**
 * MTA-STS (RFC 8461): the policy file served at https://mta-sts.<domain>/.well-known/mta-sts.txt and the
 * `_mta-sts` TXT record announcing it.
 */
import { isDomainName } from './domainName.ts';
import { parseResult, type FieldIssue, type ParseResult } from './issues.ts';
import { splitTagList } from './tagList.ts';

export const MTA_STS_MODES = ['none', 'testing', 'enforce'] as const;
export type MtaStsMode = (typeof MTA_STS_MODES)[number];

/** max_age bounds in seconds (RFC 8461 §3.2: up to 31557600, one year). */
export const MTA_STS_MAX_AGE_LIMIT = 31557600;
/** max_age the v1 interface's reset uses (one week). */
export const MTA_STS_DEFAULT_MAX_AGE = 604800;
/** Policy bodies larger than this need not be accepted by senders (RFC 8461 §3.3). */
export const MTA_STS_MAX_POLICY_BYTES = 64 * 1024;

export interface MtaStsPolicy {
  version: 'STSv1';
  mode: MtaStsMode;
  /** MX patterns: host names, or `*.` + name to match exactly one leftmost label. */
  mx: string[];
  max_age: number;
}

/** Form/API input of a policy: mode, max_age (number or digits) and mx names. */
export interface MtaStsPolicyInput {
  mode?: unknown;
  max_age?: unknown;
  mx?: unknown;
}

/** The `_mta-sts` TXT record: version and policy id. */
export interface MtaStsRecord {
  v: 'STSv1';
  id: string;
}

type Checked<T> = { value: T } | { error: string };

function checkMode(raw: string): Checked<MtaStsMode> {
  const v = raw.toLowerCase();
  return (MTA_STS_MODES as readonly string[]).includes(v)
    ? { value: v as MtaStsMode }
    : { error: `"${raw}" is not a mode (none, testing or enforce)` };
}

function checkMaxAge(raw: string): Checked<number> {
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > MTA_STS_MAX_AGE_LIMIT) {
    return { error: `"${raw}" is not a number of seconds from 0 to ${MTA_STS_MAX_AGE_LIMIT}` };
  }
  return { value: Number(raw) };
}

/** Checks one mx pattern: a host name, or `*.` followed by one. */
export function checkMxPattern(raw: string): Checked<string> {
  const pattern = raw.trim().toLowerCase().replace(/\.$/, '');
  const host = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
  if (!isDomainName(host)) return { error: `"${raw}" is not a host name or *.domain pattern` };
  return { value: pattern };
}

/** True when MX host `host` matches policy pattern `pattern`; a wildcard covers exactly one leftmost label. */
export function mxMatchesPattern(host: string, pattern: string): boolean {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  const p = pattern.trim().toLowerCase().replace(/\.$/, '');
  if (!p.startsWith('*.')) return h === p;
  const dot = h.indexOf('.');
  return dot > 0 && h.slice(dot + 1) === p.slice(2);
}

// Advice shared by the file parser and the form validator.
function adviceFor(policy: MtaStsPolicy): FieldIssue[] {
  const warnings: FieldIssue[] = [];
  if (policy.mode !== 'none' && policy.max_age < 86400) {
    warnings.push({
      field: 'max_age',
      message: 'RFC 8461 recommends a max_age of weeks; under a day gives little protection',
    });
  }
  return warnings;
}

/** Parses a policy file (CRLF or LF lines). Errors are keyed by field: version, mode, mx, max_age, file. */
export function parseMtaStsPolicy(text: string): ParseResult<MtaStsPolicy> {
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  if (new TextEncoder().encode(text).length > MTA_STS_MAX_POLICY_BYTES) {
    errors.push({ field: 'file', message: 'the policy is larger than 64 KB; senders may refuse it' });
    return parseResult<MtaStsPolicy>(null, errors, warnings);
  }
  const seen = new Set<string>();
  let version: string | undefined;
  let mode: MtaStsMode | undefined;
  let maxAge: number | undefined;
  const mx: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const colon = line.indexOf(':');
    if (colon < 0) {
      errors.push({ field: 'file', message: `line ${i + 1} is not "key: value"` });
      return;
    }
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (key !== 'mx' && seen.has(key)) {
      errors.push({ field: key, message: `${key} appears more than once` });
      return;
    }
    seen.add(key);
    switch (key) {
      case 'version':
        // sts-version-value is the case-sensitive %s"STSv1".
        if (value === 'STSv1') version = value;
        else errors.push({ field: 'version', message: `version must be STSv1, not "${value}"` });
        break;
      case 'mode': {
        const c = checkMode(value);
        if ('error' in c) errors.push({ field: 'mode', message: c.error });
        else mode = c.value;
        break;
      }
      case 'max_age': {
        const c = checkMaxAge(value);
        if ('error' in c) errors.push({ field: 'max_age', message: c.error });
        else maxAge = c.value;
        break;
      }
      case 'mx': {
        const c = checkMxPattern(value);
        if ('error' in c) errors.push({ field: 'mx', message: c.error });
        else if (mx.includes(c.value)) warnings.push({ field: 'mx', message: `${c.value} is listed twice` });
        else mx.push(c.value);
        break;
      }
      default:
        warnings.push({ field: key, message: `unknown field ${key} is ignored` });
    }
  });
  for (const [field, present] of [
    ['version', seen.has('version')],
    ['mode', seen.has('mode')],
    ['max_age', seen.has('max_age')],
  ] as const) {
    if (!present) errors.push({ field, message: `${field} is required` });
  }
  if (mode && mode !== 'none' && mx.length === 0 && !seen.has('mx')) {
    errors.push({ field: 'mx', message: `mode ${mode} needs at least one mx line` });
  }
  const policy =
    version && mode && maxAge !== undefined
      ? ({ version: 'STSv1', mode, mx, max_age: maxAge } satisfies MtaStsPolicy)
      : null;
  if (policy && errors.length === 0) warnings.push(...adviceFor(policy));
  return parseResult(policy, errors, warnings);
}

/** Validates form/API input; mx items are reported as `mx[i]`. */
export function validateMtaStsPolicy(input: MtaStsPolicyInput): ParseResult<MtaStsPolicy> {
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  let mode: MtaStsMode | undefined;
  let maxAge: number | undefined;
  const mx: string[] = [];
  if (typeof input.mode !== 'string' || input.mode === '') {
    errors.push({ field: 'mode', message: 'mode is required (none, testing or enforce)' });
  } else {
    const c = checkMode(input.mode);
    if ('error' in c) errors.push({ field: 'mode', message: c.error });
    else mode = c.value;
  }
  const ageText = typeof input.max_age === 'number' ? String(input.max_age) : input.max_age;
  if (typeof ageText !== 'string' || ageText === '') {
    errors.push({ field: 'max_age', message: 'max_age is required' });
  } else {
    const c = checkMaxAge(ageText.trim());
    if ('error' in c) errors.push({ field: 'max_age', message: c.error });
    else maxAge = c.value;
  }
  const list = input.mx === undefined || input.mx === null ? [] : input.mx;
  if (!Array.isArray(list)) {
    errors.push({ field: 'mx', message: 'mx must be a list of host names' });
  } else {
    list.forEach((item, i) => {
      const c = typeof item === 'string' ? checkMxPattern(item) : ({ error: 'must be a string' } as const);
      if ('error' in c) errors.push({ field: `mx[${i}]`, message: c.error });
      else if (mx.includes(c.value))
        warnings.push({ field: `mx[${i}]`, message: `${c.value} is listed twice` });
      else mx.push(c.value);
    });
    if (mode && mode !== 'none' && list.length === 0) {
      errors.push({ field: 'mx', message: `mode ${mode} needs at least one mx host` });
    }
  }
  const policy =
    mode && maxAge !== undefined
      ? ({ version: 'STSv1', mode, mx, max_age: maxAge } satisfies MtaStsPolicy)
      : null;
  if (policy && errors.length === 0) warnings.push(...adviceFor(policy));
  return parseResult(policy, errors, warnings);
}

/** Writes the policy file: version, mode, one line per mx, max_age, each ending in CRLF (RFC 8461 §3.2). */
export function formatMtaStsPolicy(policy: MtaStsPolicy): string {
  const lines = [
    'version: STSv1',
    `mode: ${policy.mode}`,
    ...policy.mx.map((m) => `mx: ${m}`),
    `max_age: ${policy.max_age}`,
  ];
  return lines.map((l) => `${l}\r\n`).join('');
}

/** Parses the `_mta-sts` TXT record (`v=STSv1; id=...`); errors keyed by v and id. */
export function parseMtaStsRecord(text: string): ParseResult<MtaStsRecord> {
  const { tags, errors } = splitTagList(text.trim());
  const warnings: FieldIssue[] = [];
  const first = tags[0];
  if (first?.name !== 'v' || first.value !== 'STSv1') {
    errors.unshift({ field: 'v', message: 'the record must start with v=STSv1' });
  }
  const id = tags.find((t) => t.name === 'id')?.value;
  if (id === undefined) errors.push({ field: 'id', message: 'id is required' });
  else if (!/^[A-Za-z0-9]{1,32}$/.test(id))
    errors.push({ field: 'id', message: 'id must be 1 to 32 letters or digits' });
  for (const t of tags) {
    if (t.name !== 'v' && t.name !== 'id')
      warnings.push({ field: t.name, message: `unknown tag ${t.name} is ignored` });
  }
  return parseResult(id !== undefined ? { v: 'STSv1', id } : null, errors, warnings);
}

/** Writes `v=STSv1; id=<id>`. */
export function buildMtaStsRecord(id: string): string {
  return `v=STSv1; id=${id}`;
}

/** A policy id from a timestamp (UTC `YYYYMMDDhhmmss`), changed whenever the policy changes. */
export function mtaStsPolicyId(at: Date): string {
  return at
    .toISOString()
    .replace(/[^0-9]/g, '')
    .slice(0, 14);
}
