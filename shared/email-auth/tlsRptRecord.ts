/**
 * TLS-RPT records (RFC 8460 §3): `v=TLSRPTv1; rua=mailto:…,https://…` published at `_smtp._tls.<domain>`.
 */
import { isEmailAddress } from './domainName.ts';
import { parseResult, type FieldIssue, type ParseResult } from './issues.ts';
import { splitTagList } from './tagList.ts';

export interface TlsRptRecord {
  v: 'TLSRPTv1';
  /** Report destinations: mailto: addresses and https: endpoints. */
  rua: string[];
}

/** Checks one rua URI: `mailto:address` or an `https://` URL. Returns an error message or null. */
export function checkTlsRptUri(uri: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme === 'mailto') {
    let address: string;
    try {
      address = decodeURIComponent(uri.slice('mailto:'.length));
    } catch {
      return `"${uri}" has a malformed %-escape`;
    }
    return isEmailAddress(address) ? null : `"${address}" in "${uri}" is not an e-mail address`;
  }
  if (scheme === 'https') {
    try {
      const url = new URL(uri);
      return url.hostname.includes('.') ? null : `"${uri}" has no valid host`;
    } catch {
      return `"${uri}" is not a valid URL`;
    }
  }
  return `"${uri}" must be a mailto: or https: URI`;
}

function checkRua(raw: string): { value: string[] } | { error: string } {
  if (raw === '') return { error: 'rua needs at least one mailto: or https: URI' };
  const uris = raw.split(',').map((u) => u.trim());
  const problems = uris.map(checkTlsRptUri).filter((p): p is string => p !== null);
  return problems.length > 0 ? { error: problems.join('; ') } : { value: uris };
}

/** Parses a TLS-RPT TXT record; errors keyed by v and rua, unknown tags as warnings. */
export function parseTlsRptRecord(text: string): ParseResult<TlsRptRecord> {
  const { tags, errors } = splitTagList(text.trim());
  const warnings: FieldIssue[] = [];
  const first = tags[0];
  // RFC 8460 §3: the record must begin with v=TLSRPTv1 (case-sensitive, %s"TLSRPTv1").
  if (first?.name !== 'v' || first.value !== 'TLSRPTv1') {
    errors.unshift({ field: 'v', message: 'the record must start with v=TLSRPTv1' });
  }
  let rua: string[] | null = null;
  const ruaTag = tags.find((t) => t.name === 'rua');
  if (!ruaTag) {
    errors.push({ field: 'rua', message: 'rua is required' });
  } else {
    const c = checkRua(ruaTag.value);
    if ('error' in c) errors.push({ field: 'rua', message: c.error });
    else rua = c.value;
  }
  for (const t of tags) {
    if (t.name !== 'v' && t.name !== 'rua')
      warnings.push({ field: t.name, message: `unknown tag ${t.name} is ignored` });
  }
  return parseResult(rua ? { v: 'TLSRPTv1', rua } : null, errors, warnings);
}

/** Validates form/API input: `rua` as a list (errors as `rua[i]`) or a comma-separated string. */
export function validateTlsRptInput(input: { rua?: unknown }): ParseResult<TlsRptRecord> {
  const errors: FieldIssue[] = [];
  const list = typeof input.rua === 'string' ? input.rua.split(',') : input.rua;
  if (!Array.isArray(list) || list.length === 0 || list.every((u) => u === '')) {
    return parseResult<TlsRptRecord>(
      null,
      [{ field: 'rua', message: 'rua needs at least one mailto: or https: URI' }],
      [],
    );
  }
  const rua: string[] = [];
  list.forEach((item, i) => {
    const uri = typeof item === 'string' ? item.trim() : '';
    const problem = typeof item === 'string' ? checkTlsRptUri(uri) : 'must be a string';
    if (problem) errors.push({ field: `rua[${i}]`, message: problem });
    else rua.push(uri);
  });
  return parseResult({ v: 'TLSRPTv1', rua }, errors, []);
}

/** Writes `v=TLSRPTv1; rua=<uri>,<uri>`. */
export function buildTlsRptRecord(record: Pick<TlsRptRecord, 'rua'>): string {
  return `v=TLSRPTv1; rua=${record.rua.join(',')}`;
}
