import type { DomainStatusView } from '../../../shared/bridge/results.ts';
import { parseDmarcRecord } from '../../../shared/email-auth/dmarcRecord.ts';

/** The effective DMARC policy a record asks for, as the status shows it. */
export type DmarcPolicyView = NonNullable<DomainStatusView['dmarc']>;

/** The policy of a DMARC record, or null when there is no record or it does not parse. */
export function dmarcPolicyOf(record: string | null): DmarcPolicyView | null {
  if (!record) return null;
  const parsed = parseDmarcRecord(record);
  if (!parsed.ok || !parsed.value) return null;
  const r = parsed.value;
  return { policy: r.p, subdomainPolicy: r.sp ?? r.p, pct: r.pct ?? 100 };
}
