/**
 * The hosted SPF and MTA-STS state the edit previews start from, read from the panels' answers (GET
 * hosted-spf, GET mta-sts and the last check-dns result). Pure: unknown shapes give null, never a throw.
 */
import type { SpfComposition, SpfIpActionType } from '../../../shared/email-auth/hostedSpf.ts';
import { MTA_STS_MODES, type MtaStsPolicy } from '../../../shared/email-auth/mtaStsPolicy.ts';
import { normalizeDomain, recordName } from '../../../shared/email-auth/protocols.ts';
import { SPF_ALL_VALUES, type SpfAll } from '../../../shared/email-auth/spfRecord.ts';

/** The hosted SPF record and what it is made of. */
export interface HostedSpfState {
  /** Where the service serves the record, e.g. example.com.spf.hosted.authwatch.example. */
  name: string;
  value: string;
  /** What the customer publishes at the domain (an include of `name` and the same all). */
  toPublish: string | null;
  all: SpfAll;
  includes: { id: number; target: string; lookups: number | null }[];
  ipActions: { id: number; ip: string; type: SpfIpActionType }[];
  /** DNS lookups the record takes, as the service counted them. */
  lookupCount: number | null;
}

/** The hosted MTA-STS policy (null before setup) and the MX hosts the last DNS check saw. */
export interface MtaStsState {
  policy: MtaStsPolicy | null;
  policyId: string | null;
  /** Where receivers look for the `_mta-sts` record, and where the service serves it (the CNAME target). */
  txtName: string;
  hostedTxtName: string | null;
  /** MX hosts of the last check-dns result, lowest priority first; null when there is none. */
  liveMx: string[] | null;
  liveMxAt: string | null;
}

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => !!v && typeof v === 'object' && !Array.isArray(v);
const rows = (v: unknown): Row[] => (Array.isArray(v) ? v.filter(isRow) : []);

/** The hosted SPF state from GET hosted-spf's data, or null when nothing usable is there. */
export function hostedSpfState(data: unknown): HostedSpfState | null {
  if (!isRow(data) || typeof data.hosted_record_value !== 'string') return null;
  const all = SPF_ALL_VALUES.find((a) => a === data.all);
  if (!all) return null;
  return {
    name: typeof data.hosted_record_name === 'string' ? data.hosted_record_name : '',
    value: data.hosted_record_value,
    toPublish: typeof data.record_to_publish === 'string' ? data.record_to_publish : null,
    all,
    includes: rows(data.includes)
      .filter((r) => typeof r.id === 'number' && typeof r.include_content === 'string')
      .map((r) => ({
        id: r.id as number,
        target: r.include_content as string,
        lookups: typeof r.lookup_count === 'number' ? r.lookup_count : null,
      })),
    ipActions: rows(data.ip_actions)
      .filter((r) => typeof r.id === 'number' && typeof r.ip === 'string')
      .filter((r) => r.type === 'Allow' || r.type === 'Reject')
      .map((r) => ({ id: r.id as number, ip: r.ip as string, type: r.type as SpfIpActionType })),
    lookupCount: typeof data.lookup_count === 'number' ? data.lookup_count : null,
  };
}

/** What the hosted record is made of, as the service composes it. */
export function compositionOf(state: HostedSpfState): SpfComposition {
  return {
    all: state.all,
    includes: state.includes.map((i) => i.target),
    ipActions: state.ipActions.map(({ ip, type }) => ({ ip, type })),
  };
}

/** The MTA-STS state from GET mta-sts's data (null before setup) and GET dns-fetch-result's data. */
export function mtaStsState(fqdn: string, mtaSts: unknown, dnsFetch: unknown): MtaStsState {
  let policy: MtaStsPolicy | null = null;
  let policyId: string | null = null;
  let hostedTxtName: string | null = null;
  if (isRow(mtaSts)) {
    const mode = MTA_STS_MODES.find((m) => m === mtaSts.mode);
    const mx = Array.isArray(mtaSts.mx) ? mtaSts.mx.filter((m): m is string => typeof m === 'string') : null;
    if (mode && typeof mtaSts.max_age === 'number' && mx)
      policy = { version: 'STSv1', mode, max_age: mtaSts.max_age, mx };
    policyId = typeof mtaSts.policy_id === 'string' ? mtaSts.policy_id : null;
    const txt = rows(mtaSts.hosted_dns_records).find((r) => r.type === 'TXT');
    hostedTxtName = typeof txt?.name === 'string' ? txt.name : null;
  }
  let liveMx: string[] | null = null;
  let liveMxAt: string | null = null;
  if (isRow(dnsFetch) && Array.isArray(dnsFetch.mx)) {
    // "10 mx1.example.com", lowest priority first; the null MX "." means no mail.
    const hosts = dnsFetch.mx
      .filter((m): m is string => typeof m === 'string')
      .map((m) => normalizeDomain(m.trim().split(/\s+/).pop() ?? ''))
      .filter((h) => h !== '' && h !== '.');
    liveMx = [...new Set(hosts)];
    liveMxAt = typeof dnsFetch.fetched_at === 'string' ? dnsFetch.fetched_at : null;
  }
  return { policy, policyId, txtName: recordName('mta_sts', fqdn), hostedTxtName, liveMx, liveMxAt };
}
