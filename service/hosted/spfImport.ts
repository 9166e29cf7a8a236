/**
 * Import of a domain's live SPF record when hosted SPF is provisioned (`import_existing`, default true):
 * what the hosted model can express is taken over, the rest is reported.
 *
 *   include:x      → include x (except one pointing at the hosted record itself)
 *   ip4/ip6 (+)    → IP action Allow;  -ip4/-ip6 → IP action Reject
 *   all            → the terminal all (unless the request names one)
 *   a, mx, ptr, exists, redirect, ~ip/?ip terms and macros cannot be expressed by includes and IP actions:
 *   they are skipped and listed in `skipped`, so the owner can add what they need (an include, an IP).
 */
import { lookupPublishedRecord } from '../../shared/email-auth/publishedRecord.ts';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { formatNetwork } from '../../shared/email-auth/ipAddress.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';
import { analyzeSpfRecord, type SpfAll } from '../../shared/email-auth/spfRecord.ts';
import type { SpfComposition } from './hostedSpfStore.ts';
import { hostedRecordName } from './serviceDns.ts';

/** What could be imported from the live record. */
export interface SpfImport {
  /** The live record, or null when the domain publishes none (or the lookup failed). */
  record: string | null;
  includes: string[];
  ipActions: SpfComposition['ipActions'];
  all: SpfAll | null;
  skipped: string[];
}

/** Reads the domain's published SPF record and maps it onto includes, IP actions and all. */
export async function importLiveSpf(fqdn: string, resolve: DnsResolve): Promise<SpfImport> {
  const empty: SpfImport = { record: null, includes: [], ipActions: [], all: null, skipped: [] };
  const published = await lookupPublishedRecord('spf', fqdn, resolve);
  if (published.record === null) return empty;
  const parsed = analyzeSpfRecord(published.record);
  if (!parsed.value) return { ...empty, record: published.record };
  const hosted = hostedRecordName('spf', fqdn);
  const out: SpfImport = { ...empty, record: published.record };
  for (const term of parsed.value.terms) {
    if (term.kind === 'modifier') {
      out.skipped.push(term.raw);
      continue;
    }
    if (term.name === 'include' && term.domain && !term.macro && term.qualifier === '+') {
      const target = normalizeDomain(term.domain);
      if (target !== hosted && !out.includes.includes(target)) out.includes.push(target);
      continue;
    }
    if ((term.name === 'ip4' || term.name === 'ip6') && term.network) {
      const ip = formatNetwork(term.network);
      if (out.ipActions.some((a) => a.ip === ip)) continue;
      if (term.qualifier === '+') out.ipActions.push({ ip, type: 'Allow' });
      else if (term.qualifier === '-') out.ipActions.push({ ip, type: 'Reject' });
      else out.skipped.push(term.raw);
      continue;
    }
    if (term.name === 'all') {
      out.all = `${term.qualifier}all` as SpfAll;
      break;
    }
    out.skipped.push(term.raw);
  }
  return out;
}
