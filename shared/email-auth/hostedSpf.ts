/**
 * A hosted SPF record as the v1 interface composes it: IP actions (Reject first as -ip4/-ip6, then Allow as
 * ip4/ip6), the includes in the order added and the terminal all. The service builds the record it serves
 * with this, and the app builds the same record to preview an edit before it is sent.
 */
import { ipFamily } from './ipAddress.ts';
import type { ParseResult } from './issues.ts';
import { buildSpfRecord, type SpfAll } from './spfRecord.ts';

/** The interface's SPF IP action types. */
export type SpfIpActionType = 'Allow' | 'Reject';

/** What a hosted SPF record is made of. */
export interface SpfComposition {
  all: SpfAll;
  includes: string[];
  ipActions: { ip: string; type: SpfIpActionType }[];
}

/** The hosted record of a composition, validated (more than 10 DNS-querying terms, a bad term: errors). */
export function buildHostedSpfRecord(c: SpfComposition): ParseResult<string> {
  const allow = c.ipActions.filter((a) => a.type === 'Allow').map((a) => a.ip);
  return buildSpfRecord({
    reject_ips: c.ipActions.filter((a) => a.type === 'Reject').map((a) => a.ip),
    ip4: allow.filter((ip) => ipFamily(ip.split('/')[0] ?? '') === 4),
    ip6: allow.filter((ip) => ipFamily(ip.split('/')[0] ?? '') === 6),
    includes: c.includes,
    all: c.all,
  });
}

/** The record the customer publishes at the domain: an include of the hosted record, then the same all. */
export function hostedSpfRecordToPublish(hostedName: string, all: SpfAll): string {
  return `v=spf1 include:${hostedName} ${all}`;
}
