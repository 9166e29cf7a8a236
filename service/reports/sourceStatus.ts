/**
 * DMARC compliance of a sending source and its status (GET sending-services / failed-sources):
 *   compliance = messages passing DMARC / all messages × 100, rounded half-up to one decimal;
 *   status: compliant when compliance ≥ 98, partial when ≥ 50, failing below 50.
 * The thresholds apply to the rounded figure, so the percentage shown and the status never disagree
 * (97.95 % shows as 98.0 and is compliant).
 */
import { percentOneDecimal } from './percent.ts';

/** Lowest compliance (percent, inclusive) of a compliant source. */
export const COMPLIANT_MIN_PERCENT = 98;
/** Lowest compliance (percent, inclusive) of a partially compliant source; below it a source is failing. */
export const PARTIAL_MIN_PERCENT = 50;

/** Status of a sending source. */
export type SourceStatus = 'compliant' | 'partial' | 'failing';

/** pass / total × 100 rounded half-up to one decimal; 0 when total is 0. */
export function compliancePercent(pass: number, total: number): number {
  return percentOneDecimal(pass, total);
}

/** The status of a (rounded) compliance percentage. */
export function sourceStatus(compliance: number): SourceStatus {
  if (compliance >= COMPLIANT_MIN_PERCENT) return 'compliant';
  if (compliance >= PARTIAL_MIN_PERCENT) return 'partial';
  return 'failing';
}
