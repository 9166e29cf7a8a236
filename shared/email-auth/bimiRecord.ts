/**
 * BIMI assertion records (draft-brand-indicators-for-message-identification):
 * `v=BIMI1; l=https://…/logo.svg; a=https://…/vmc.pem` at `<selector>._bimi.<domain>`.
 */
import { parseResult, type FieldIssue, type ParseResult } from './issues.ts';
import { splitTagList } from './tagList.ts';

export interface BimiRecord {
  v: 'BIMI1';
  /** Logo location (https URL of an SVG Tiny PS file), or '' when only the certificate carries the logo. */
  l: string;
  /** Authority evidence location (https URL of the VMC/CMC PEM), or '' when absent. */
  a: string;
  /** Avatar preference (`brand` or `personal`), when given. */
  avp?: 'brand' | 'personal';
  /** True for the declination record `v=BIMI1; l=; a=;`: the domain asks that no logo be shown. */
  declined: boolean;
}

/** Form/API input for a BIMI record. */
export interface BimiRecordInput {
  l?: unknown;
  a?: unknown;
  avp?: unknown;
}

const KNOWN = new Set(['v', 'l', 'a', 'avp']);

/** Checks that `value` is an https URL (error message or null); `kind` names the expected file. */
function checkHttpsUrl(field: 'l' | 'a', value: string, warnings: FieldIssue[]): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL`;
  }
  if (url.protocol !== 'https:') return `"${value}" must use https`;
  if (!url.hostname.includes('.')) return `"${value}" has no valid host`;
  const ext = field === 'l' ? '.svg' : '.pem';
  if (!url.pathname.toLowerCase().endsWith(ext)) {
    warnings.push({
      field,
      message: `${field === 'l' ? 'the logo' : 'the certificate'} URL usually ends in ${ext}`,
    });
  }
  return null;
}

function assemble(
  l: string,
  a: string,
  avp: string | undefined,
  errors: FieldIssue[],
  warnings: FieldIssue[],
): BimiRecord | null {
  if (l !== '') {
    const problem = checkHttpsUrl('l', l, warnings);
    if (problem) errors.push({ field: 'l', message: problem });
  }
  if (a !== '') {
    const problem = checkHttpsUrl('a', a, warnings);
    if (problem) errors.push({ field: 'a', message: problem });
  }
  if (avp !== undefined && avp !== 'brand' && avp !== 'personal') {
    errors.push({ field: 'avp', message: `"${avp}" is not an avatar preference (brand or personal)` });
  }
  if (l === '' && a !== '') {
    warnings.push({
      field: 'l',
      message: 'without l, mailbox providers must take the logo from the certificate',
    });
  }
  if (l !== '' && a === '') {
    warnings.push({
      field: 'a',
      message: 'without a VMC or CMC in a, most mailbox providers will not show the logo',
    });
  }
  const record: BimiRecord = { v: 'BIMI1', l, a, declined: l === '' && a === '' };
  if (avp === 'brand' || avp === 'personal') record.avp = avp;
  return record;
}

/** Parses a BIMI TXT record; errors keyed by v, l, a, avp. */
export function parseBimiRecord(text: string): ParseResult<BimiRecord> {
  const { tags, errors } = splitTagList(text.trim());
  const warnings: FieldIssue[] = [];
  const first = tags[0];
  if (first?.name !== 'v' || first.value !== 'BIMI1') {
    errors.unshift({ field: 'v', message: 'the record must start with v=BIMI1' });
  }
  for (const t of tags) {
    if (!KNOWN.has(t.name)) warnings.push({ field: t.name, message: `unknown tag ${t.name} is ignored` });
  }
  const get = (name: string) => tags.find((t) => t.name === name)?.value;
  const l = get('l');
  if (l === undefined && get('a') === undefined) {
    errors.push({ field: 'l', message: 'l (logo URL) is required' });
  }
  const record = assemble(l ?? '', get('a') ?? '', get('avp')?.toLowerCase(), errors, warnings);
  return parseResult(record, errors, warnings);
}

/** Validates form/API input (l and a as https URLs; empty both means declining BIMI). */
export function validateBimiInput(input: BimiRecordInput): ParseResult<BimiRecord> {
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const text = (field: 'l' | 'a' | 'avp'): string | undefined => {
    const v = input[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      errors.push({ field, message: `${field} must be a string` });
      return undefined;
    }
    return v.trim();
  };
  const l = text('l') ?? '';
  const a = text('a') ?? '';
  const avp = text('avp');
  const record = assemble(l, a, avp === '' ? undefined : avp?.toLowerCase(), errors, warnings);
  return parseResult(record, errors, warnings);
}

/** Writes `v=BIMI1; l=<logo>; a=<vmc>` (and avp when set); empty values give the declination record. */
export function buildBimiRecord(
  record: Pick<BimiRecord, 'l' | 'a'> & { avp?: 'brand' | 'personal' },
): string {
  const parts = ['v=BIMI1', `l=${record.l}`];
  if (record.a !== '' || record.l === '') parts.push(`a=${record.a}`);
  if (record.avp) parts.push(`avp=${record.avp}`);
  return parts.join('; ') + (record.l === '' && record.a === '' ? ';' : '');
}
