/**
 * The hosted SPF and MTA-STS state the edit previews start from, read from the panels' answers (GET
 * hosted-spf, GET mta-sts and the last check-dns result, typed from openapi.yaml as kept). Pure: a state the
 * answer does not give in full gives null, never a throw.
 */
import type { PanelData } from '../../../shared/bridge/panelData.ts';
import type { SpfComposition, SpfIpActionType } from '../../../shared/email-auth/hostedSpf.ts';
import type { MtaStsPolicy } from '../../../shared/email-auth/mtaStsPolicy.ts';
import { normalizeDomain, recordName } from '../../../shared/email-auth/protocols.ts';
import type { SpfAll } from '../../../shared/email-auth/spfRecord.ts';

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

/** GET hosted-spf's data as kept. */
type HostedSpfData = PanelData<'hosted_spf'>;

/** The hosted SPF state from GET hosted-spf's data, or null when nothing usable is there. */
export function hostedSpfState(data: HostedSpfData | null | undefined): HostedSpfState | null {
  const value = data?.hosted_record_value;
  const all = data?.all;
  if (typeof value !== 'string' || !all) return null;
  return {
    name: data?.hosted_record_name ?? '',
    value,
    toPublish: data?.record_to_publish ?? null,
    all,
    includes: (data?.includes ?? []).flatMap(({ id, include_content: target, lookup_count }) =>
      typeof id === 'number' && typeof target === 'string'
        ? [{ id, target, lookups: lookup_count ?? null }]
        : [],
    ),
    ipActions: (data?.ip_actions ?? []).flatMap(({ id, ip, type }) =>
      typeof id === 'number' && typeof ip === 'string' && type ? [{ id, ip, type }] : [],
    ),
    lookupCount: data?.lookup_count ?? null,
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
export function mtaStsState(
  fqdn: string,
  mtaSts: PanelData<'mta_sts'> | null | undefined,
  dnsFetch: PanelData<'dns_fetch_result'> | null | undefined,
): MtaStsState {
  const mode = mtaSts?.mode;
  const maxAge = mtaSts?.max_age;
  const mx = mtaSts?.mx;
  const policy: MtaStsPolicy | null =
    mode && typeof maxAge === 'number' && mx ? { version: 'STSv1', mode, max_age: maxAge, mx } : null;
  const txt = mtaSts?.hosted_dns_records?.find((r) => r.type === 'TXT');
  let liveMx: string[] | null = null;
  if (dnsFetch?.mx) {
    // "10 mx1.example.com", lowest priority first; the null MX "." means no mail.
    const hosts = dnsFetch.mx
      .map((m) => normalizeDomain(m.trim().split(/\s+/).pop() ?? ''))
      .filter((h) => h !== '' && h !== '.');
    liveMx = [...new Set(hosts)];
  }
  return {
    policy,
    policyId: mtaSts?.policy_id ?? null,
    txtName: recordName('mta_sts', fqdn),
    hostedTxtName: txt?.name ?? null,
    liveMx,
    liveMxAt: liveMx ? (dnsFetch?.fetched_at ?? null) : null,
  };
}
