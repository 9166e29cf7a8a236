/**
 * The DNS records (and the MTA-STS policy file) an edit will publish, built with shared/email-auth from the
 * state in force (read with readPanel) and the change, beside the current ones. Pure; an empty list when the
 * operation publishes nothing the app can build (or is not a record change). DMARC here; hosted SPF in
 * ./spfEdit.ts, MTA-STS in ./mtaStsEdit.ts.
 */
import {
  buildDmarcRecord,
  parseDmarcRecord,
  validateDmarcTags,
} from '../../../shared/email-auth/dmarcRecord.ts';
import { parseSpfRecord } from '../../../shared/email-auth/spfRecord.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import type { HostedSpfState, MtaStsState } from './hostedState.ts';
import { isSpfCompositionEdit, spfEditPreviews, type PathIds } from './spfEdit.ts';
import { isMtaStsEdit, mtaStsEditPreviews } from './mtaStsEdit.ts';
import { fieldsOf } from './shape.ts';

export interface RecordPreview {
  /** Where it is published, e.g. _dmarc.example.com, or the policy file's URL. */
  name: string;
  /** A DNS record, or the file served over HTTPS (MTA-STS policy). */
  kind: 'record' | 'file';
  current: string | null;
  proposed: string | null;
  /** Why the proposed record could not be built (the change or the current record does not parse). */
  problem: string | null;
  /** What else to know: who publishes it, where the values come from, the lookup count. */
  note?: string;
}

/** The state in force, as the panels read it (null when not read or absent). */
export interface CurrentRecords {
  dmarc: string | null;
  spf: string | null;
  /** The hosted SPF record and its includes and IP actions (GET hosted-spf). */
  hostedSpf?: HostedSpfState | null;
  /** The hosted MTA-STS policy and the MX hosts of the last DNS check. */
  mtaSts?: MtaStsState | null;
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

/** The previews of an operation's records: [] when it publishes none the app can build. */
export function recordPreviews(
  name: EditOperationName,
  fqdn: string,
  current: CurrentRecords,
  body: unknown,
  ids: PathIds = {},
  now: Date = new Date(),
): RecordPreview[] {
  const change = fieldsOf(body);
  const of = (next: string | Error | null, where: string, was: string | null): RecordPreview[] => [
    next instanceof Error
      ? { name: where, kind: 'record', current: was, proposed: null, problem: next.message }
      : { name: where, kind: 'record', current: was, proposed: next, problem: null },
  ];
  if (isSpfCompositionEdit(name)) {
    if (current.hostedSpf) return spfEditPreviews(name, fqdn, current.hostedSpf, body, ids);
    if (name === 'updateHostedSpf' && typeof change.all === 'string')
      return of(spfAfter(current.spf, change.all), fqdn, current.spf);
    return [
      {
        name: fqdn,
        kind: 'record',
        current: current.spf,
        proposed: null,
        problem:
          current.hostedSpf === null
            ? 'the hosted SPF record could not be read (not provisioned, or the service is unreachable)'
            : 'reading the hosted SPF record…',
      },
    ];
  }
  if (isMtaStsEdit(name)) {
    if (current.mtaSts) return mtaStsEditPreviews(name, fqdn, current.mtaSts, body, now);
    return [
      {
        name: `_mta-sts.${fqdn}`,
        kind: 'record',
        current: null,
        proposed: null,
        problem: 'reading the MTA-STS policy…',
      },
    ];
  }
  switch (name) {
    case 'createHostedDmarc':
    case 'updateHostedDmarc':
    case 'updateDmarcPolicy':
      return of(dmarcAfter(current.dmarc, change), `_dmarc.${fqdn}`, current.dmarc);
    case 'deleteHostedDmarc':
      return of(null, `_dmarc.${fqdn}`, current.dmarc);
    case 'createHostedSpf':
      if (current.hostedSpf) return of(new Error('hosted SPF is already provisioned'), fqdn, current.spf);
      if (change.import_existing === false)
        return [
          {
            ...of(
              `v=spf1 ${typeof change.all === 'string' ? change.all : '~all'}`,
              'the hosted record',
              null,
            )[0]!,
            note: 'The service names the hosted record and answers with the record to publish at the domain.',
          },
        ];
      return [
        {
          name: fqdn,
          kind: 'record',
          current: null,
          proposed: null,
          problem:
            'the service imports the includes and addresses of the live SPF record; it answers with the record it built',
        },
      ];
    case 'deleteHostedSpf':
      return of(null, current.hostedSpf?.name || fqdn, current.hostedSpf?.value ?? current.spf);
    case 'updateTlsRpt':
      return typeof change.record_value === 'string'
        ? of(change.record_value, `_smtp._tls.${fqdn}`, null)
        : [];
    case 'updateBimi':
      return typeof change.record_value === 'string'
        ? of(change.record_value, `default._bimi.${fqdn}`, null)
        : [];
    default:
      return [];
  }
}
