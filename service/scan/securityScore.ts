/**
 * The 0–10 email security score: derived_score = protocols_passing / 5 × 10 (the interface's rule; the
 * current score follows it too, so a lost protocol always costs exactly 2 points), its interpretation and a
 * one-line message naming what does not pass.
 *
 * Interpretation (by score): excellent ≥ 9, good ≥ 7, fair ≥ 5, poor ≥ 3, critical below 3 — with five
 * protocols that is 10 excellent, 8 good, 6 fair, 4 poor, 2 and 0 critical.
 */
import { PROTOCOLS, PROTOCOL_LABELS, type Protocol } from '../../shared/email-auth/protocols.ts';

/** Highest score. */
export const MAX_SCORE = 10;
/** Protocols counted. */
export const TOTAL_PROTOCOLS = 5;

/** Interpretation labels, best first, with the lowest score each one covers. */
export const INTERPRETATIONS = [
  { label: 'excellent', min: 9 },
  { label: 'good', min: 7 },
  { label: 'fair', min: 5 },
  { label: 'poor', min: 3 },
  { label: 'critical', min: 0 },
] as const;

export type Interpretation = (typeof INTERPRETATIONS)[number]['label'];

/** protocols_passing / 5 × 10. */
export function derivedScore(protocolsPassing: number): number {
  return (protocolsPassing * MAX_SCORE) / TOTAL_PROTOCOLS;
}

/** The interpretation of a score. */
export function interpretScore(score: number): Interpretation {
  return (INTERPRETATIONS.find((i) => score >= i.min) ?? INTERPRETATIONS[INTERPRETATIONS.length - 1]!).label;
}

const ADVICE: Record<Interpretation, string> = {
  excellent: 'Every tracked protocol is in place.',
  good: 'Strong posture; close the remaining gap.',
  fair: 'Partly protected; spoofing is still possible.',
  poor: 'Weak protection against spoofing and interception.',
  critical: 'The domain is easy to spoof.',
};

/** A one-line explanation of a score: how many protocols pass and which do not. */
export function scoreMessage(passing: Record<Protocol, boolean>): string {
  const count = PROTOCOLS.filter((p) => passing[p]).length;
  const failing = PROTOCOLS.filter((p) => !passing[p]).map((p) => PROTOCOL_LABELS[p]);
  const advice = ADVICE[interpretScore(derivedScore(count))];
  const gap = failing.length ? ` Not passing: ${failing.join(', ')}.` : '';
  return `${count} of ${TOTAL_PROTOCOLS} protocols pass. ${advice}${gap}`;
}
