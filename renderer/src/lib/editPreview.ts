/**
 * The DNS record an edit will publish, built with shared/email-auth from the current record (read with
 * readPanel) and the change, beside the current one. Pure; null when the operation publishes no record the
 * app can build (the service composes it, e.g. SPF includes, or the edit is not a record change).
 */
import {
  buildDmarcRecord,
  parseDmarcRecord,
  validateDmarcTags,
} from '../../../shared/email-auth/dmarcRecord.ts';
import { parseSpfRecord } from '../../../shared/email-auth/spfRecord.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';

export interface RecordPreview {
  /** Where it is published, e.g. _dmarc.example.com. */
  name: string;
  current: string | null;
  proposed: string | null;
  /** Why the proposed record could not be built (the change or the current record does not parse). */
  problem: string | null;
}

/** The records in force, as the panels read them (null when not read or absent). */
export interface CurrentRecords {
  dmarc: string | null;
  spf: string | null;
}

const DMARC_TAG_FIELDS = ['p', 'sp', 'pct', 'adkim', 'aspf', 'rua', 'ruf', 'fo', 'ri'] as const;

/** The DMARC record after a change of tags (`policy` is the dmarc-policy operation's name for p). */
export function dmarcAfter(
  current: string | null,
  change: Record<string, unknown>,
): RecordPreview['proposed'] | Error {
  const base = current ? parseDmarcRecord(current) : null;
  if (current && !base?.ok)
    return new Error('the current DMARC record does not parse; the service will rewrite it');
  const tags: Record<string, unknown> = {};
  const record = base?.value;
  if (record) {
    for (const tag of DMARC_TAG_FIELDS) {
      const value = record[tag];
      if (value !== undefined)
        tags[tag] = Array.isArray(value) ? value.join(tag === 'fo' ? ':' : ',') : value;
    }
  }
  for (const tag of DMARC_TAG_FIELDS) if (change[tag] !== undefined) tags[tag] = change[tag];
  if (change.policy !== undefined) tags.p = change.policy;
  tags.p ??= 'none';
  const built = validateDmarcTags(tags);
  if (!built.ok || !built.value)
    return new Error(built.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return buildDmarcRecord(built.value);
}

/** The SPF record after its terminal `all` changes. */
export function spfAfter(current: string | null, all: string): string | Error {
  if (!current) return `v=spf1 ${all}`;
  const parsed = parseSpfRecord(current);
  if (!parsed.ok) return new Error('the current SPF record does not parse; the service will rewrite it');
  const terms = current
    .trim()
    .split(/\s+/)
    .filter((term) => !/^[+\-~?]?all$/i.test(term));
  return [...terms, all].join(' ');
}

/** The preview of an operation's record, or null when it publishes none the app can build. */
export function recordPreview(
  name: EditOperationName,
  fqdn: string,
  current: CurrentRecords,
  body: unknown,
): RecordPreview | null {
  const change = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const of = (next: string | Error | null, where: string, now: string | null): RecordPreview =>
    next instanceof Error
      ? { name: where, current: now, proposed: null, problem: next.message }
      : { name: where, current: now, proposed: next, problem: null };
  switch (name) {
    case 'createHostedDmarc':
    case 'updateHostedDmarc':
    case 'updateDmarcPolicy':
      return of(dmarcAfter(current.dmarc, change), `_dmarc.${fqdn}`, current.dmarc);
    case 'deleteHostedDmarc':
      return of(null, `_dmarc.${fqdn}`, current.dmarc);
    case 'updateHostedSpf':
    case 'createHostedSpf':
      return typeof change.all === 'string'
        ? of(spfAfter(current.spf, change.all), fqdn, current.spf)
        : { name: fqdn, current: current.spf, proposed: null, problem: 'the service composes the record' };
    case 'deleteHostedSpf':
      return of(null, fqdn, current.spf);
    case 'updateTlsRpt':
      return typeof change.record_value === 'string'
        ? of(change.record_value, `_smtp._tls.${fqdn}`, null)
        : null;
    case 'updateBimi':
      return typeof change.record_value === 'string'
        ? of(change.record_value, `default._bimi.${fqdn}`, null)
        : null;
    default:
      return null;
  }
}
