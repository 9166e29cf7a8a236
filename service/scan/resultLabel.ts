/**
 * The qualitative result of a scan (`result` of health snapshots and score history), from best to worst.
 * The first label whose condition holds is the result:
 *
 *   Protected            all 5 protocols pass, or DMARC passes with an enforcing policy (p=quarantine or
 *                        p=reject) and SPF passes: spoofed mail is stopped
 *   Partially protected  DMARC passes, but the above does not hold (policy p=none, or SPF failing)
 *   At risk              DMARC does not pass, but at least one other protocol does
 *   Unprotected          no protocol passes
 */
import type { Protocol } from '../../shared/email-auth/protocols.ts';
import { parseDmarcRecord } from '../../shared/email-auth/dmarcRecord.ts';

/** Every result label, best first. */
export const RESULT_LABELS = ['Protected', 'Partially protected', 'At risk', 'Unprotected'] as const;

export type ResultLabel = (typeof RESULT_LABELS)[number];

/** True when `record` is a valid DMARC record asking receivers to quarantine or reject failing mail. */
export function isDmarcEnforcing(record: string | null): boolean {
  if (record === null) return false;
  const parsed = parseDmarcRecord(record);
  return parsed.value !== null && parsed.value.p !== 'none';
}

/** The label of a scan whose protocols pass as `passing` and whose DMARC record is `dmarcRecord`. */
export function resultLabel(passing: Record<Protocol, boolean>, dmarcRecord: string | null): ResultLabel {
  const count = Object.values(passing).filter(Boolean).length;
  if (count === 5 || (passing.dmarc && passing.spf && isDmarcEnforcing(dmarcRecord))) return 'Protected';
  if (passing.dmarc) return 'Partially protected';
  if (count > 0) return 'At risk';
  return 'Unprotected';
}
