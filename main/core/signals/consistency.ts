/**
 * Rules between the values of one answer that a schema cannot state: parts do not exceed their whole, and
 * the interface's stated formulas hold. The signals' definitions (defs/*) apply the ones that concern
 * them; each broken rule is an issue like a type error: the answer is malformed and the mirror keeps what
 * it had.
 */
import type { DocumentIssue } from './documentCheck.ts';
import { PROTOCOLS } from './primitives.ts';

type Obj = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export const isObj = (value: unknown): value is Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The items of a list, or none when it is not one. */
export const rows = (list: unknown): unknown[] => (Array.isArray(list) ? list : []);

/** `part` ≤ `whole` when both are numbers. */
export function notAbove(row: Obj, part: string, whole: string, at: string, out: DocumentIssue[]): void {
  const p = num(row[part]);
  const w = num(row[whole]);
  if (p !== undefined && w !== undefined && p > w) {
    out.push({ path: at + part, message: `is ${p}, more than ${whole} ${w}` });
  }
}

/** protocols_passing ≤ total_protocols, and equal to the count of true flags when all five are given. */
export function passingIssues(row: unknown, at: string, out: DocumentIssue[]): void {
  if (!isObj(row)) return;
  notAbove(row, 'protocols_passing', 'total_protocols', at, out);
  const passing = num(row.protocols_passing);
  const flags = isObj(row.protocols) ? row.protocols : null;
  if (passing === undefined || !flags) return;
  const named = PROTOCOLS.map((p) => flags[p]);
  if (named.every((f) => typeof f === 'boolean')) {
    const count = named.filter(Boolean).length;
    if (passing !== count) {
      out.push({
        path: at + 'protocols_passing',
        message: `is ${passing}, but ${count} of the protocols are true`,
      });
    }
  }
}

/** The interface's rule for score history: derived_score = protocols_passing / 5 × 10. */
export function derivedScoreIssues(row: unknown, at: string, out: DocumentIssue[]): void {
  if (!isObj(row)) return;
  const score = num(row.derived_score);
  const passing = num(row.protocols_passing);
  if (score === undefined || passing === undefined) return;
  const expected = (passing / 5) * 10;
  // One decimal of rounding either way is the server's business; more is another number.
  if (Math.abs(score - expected) > 0.051) {
    out.push({
      path: at + 'derived_score',
      message: `is ${score}, but ${passing} passing gives ${expected}`,
    });
  }
}

/** A source's DMARC pass and fail counts do not exceed its volume. */
export function sourceIssues(list: unknown, at: string, out: DocumentIssue[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((row, i) => {
    if (!isObj(row) || !isObj(row.dmarc)) return;
    const dmarc = { ...row.dmarc, total_count: row.total_count };
    notAbove(dmarc, 'pass', 'total_count', `${at}${i}.dmarc.`, out);
    notAbove(dmarc, 'fail', 'total_count', `${at}${i}.dmarc.`, out);
  });
}

/** The counters of mail volume that are parts of its total. */
export const VOLUME_PARTS = ['delivered', 'quarantined', 'rejected', 'dmarc_pass', 'dmarc_fail'];

/** start_date is not after end_date. */
export function windowIssues(value: unknown, out: DocumentIssue[]): void {
  if (!isObj(value)) return;
  const start = value.start_date;
  const end = value.end_date;
  if (typeof start === 'string' && typeof end === 'string' && start > end) {
    out.push({ path: 'start_date', message: `is ${start}, after end_date ${end}` });
  }
}
