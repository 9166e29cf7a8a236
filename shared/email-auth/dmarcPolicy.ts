import { parseDmarcRecord, type DmarcPolicy } from './dmarcRecord.ts';

/** The effective DMARC policy a record asks for: p, sp (p when not set) and pct (100 when not set). */
export interface DmarcPolicyView {
  policy: DmarcPolicy;
  subdomainPolicy: DmarcPolicy;
  pct: number;
}

/** The policy of a DMARC record, or null when there is no record or it does not parse. */
export function dmarcPolicyOf(record: string | null): DmarcPolicyView | null {
  if (!record) return null;
  const parsed = parseDmarcRecord(record);
  if (!parsed.ok || !parsed.value) return null;
  const r = parsed.value;
  return { policy: r.p, subdomainPolicy: r.sp ?? r.p, pct: r.pct ?? 100 };
}
