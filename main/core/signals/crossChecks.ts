/**
 * Rules between the values of one answer that a schema cannot state: the answer is about the domain that
 * was asked for, parts do not exceed their whole, and the interface's stated formulas hold. Each broken rule
 * is an issue like a type error: the answer is malformed and the mirror keeps what it had.
 */
import type { DocumentIssue } from './documentCheck.ts';
import type { SignalName } from './catalog.ts';

/** The domain a per-domain answer must be about (domainId null for account-level signals). */
export interface DecodeSubject {
  domainId: number | null;
  /** The domain's name as the mirror knows it; checked when given. */
  fqdn?: string | null;
}

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const sameName = (a: string, b: string): boolean =>
  a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/** Checks `domain_id`/`fqdn` of an answer object against the domain asked for. */
function subjectIssues(value: unknown, subject: DecodeSubject, at: string, out: DocumentIssue[]): void {
  if (!isObj(value) || subject.domainId === null) return;
  const id = value.domain_id;
  if (id !== undefined && id !== null && id !== subject.domainId) {
    out.push({
      path: at + 'domain_id',
      message: `is ${String(id)}, but domain ${subject.domainId} was asked for`,
    });
  }
  if (subject.fqdn && typeof value.fqdn === 'string' && !sameName(value.fqdn, subject.fqdn)) {
    out.push({
      path: at + 'fqdn',
      message: `is ${JSON.stringify(value.fqdn)}, but ${subject.fqdn} was asked for`,
    });
  }
}

/** `part` ≤ `whole` when both are numbers. */
function notAbove(row: Obj, part: string, whole: string, at: string, out: DocumentIssue[]): void {
  const p = num(row[part]);
  const w = num(row[whole]);
  if (p !== undefined && w !== undefined && p > w) {
    out.push({ path: at + part, message: `is ${p}, more than ${whole} ${w}` });
  }
}

/** protocols_passing ≤ total_protocols, and equal to the count of true flags when all five are given. */
function passingIssues(row: unknown, at: string, out: DocumentIssue[]): void {
  if (!isObj(row)) return;
  notAbove(row, 'protocols_passing', 'total_protocols', at, out);
  const passing = num(row.protocols_passing);
  const flags = isObj(row.protocols) ? row.protocols : null;
  if (passing === undefined || !flags) return;
  const named = ['dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi'].map((p) => flags[p]);
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
function derivedScoreIssues(row: unknown, at: string, out: DocumentIssue[]): void {
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

function sourceIssues(rows: unknown, at: string, out: DocumentIssue[]): void {
  if (!Array.isArray(rows)) return;
  rows.forEach((row, i) => {
    if (!isObj(row) || !isObj(row.dmarc)) return;
    const dmarc = { ...row.dmarc, total_count: row.total_count };
    notAbove(dmarc, 'pass', 'total_count', `${at}${i}.dmarc.`, out);
    notAbove(dmarc, 'fail', 'total_count', `${at}${i}.dmarc.`, out);
  });
}

const VOLUME_PARTS = ['delivered', 'quarantined', 'rejected', 'dmarc_pass', 'dmarc_fail'];

function windowIssues(value: Obj, out: DocumentIssue[]): void {
  const start = value.start_date;
  const end = value.end_date;
  if (typeof start === 'string' && typeof end === 'string' && start > end) {
    out.push({ path: 'start_date', message: `is ${start}, after end_date ${end}` });
  }
}

/** The cross-field rules `value` (an answer that already matches its schema) breaks. */
export function crossCheckIssues(name: SignalName, value: unknown, subject?: DecodeSubject): DocumentIssue[] {
  const out: DocumentIssue[] = [];
  if (subject) {
    if (name === 'tls_rpt' && isObj(value)) {
      subjectIssues(value.config, subject, 'config.', out);
      subjectIssues(value.failures, subject, 'failures.', out);
    } else subjectIssues(value, subject, '', out);
  }
  const rows = (list: unknown): unknown[] => (Array.isArray(list) ? list : []);
  const obj = isObj(value) ? value : {};
  switch (name) {
    case 'domains': {
      const seen = new Set<unknown>();
      rows(value).forEach((row, i) => {
        const id = isObj(row) ? row.id : undefined;
        if (seen.has(id)) out.push({ path: `${i}.id`, message: `${String(id)} is listed twice` });
        seen.add(id);
      });
      break;
    }
    case 'health':
      passingIssues(value, '', out);
      break;
    case 'health_history':
      rows(value).forEach((row, i) => passingIssues(row, `${i}.`, out));
      break;
    case 'score_history':
      rows(obj.history).forEach((row, i) => {
        if (isObj(row)) notAbove(row, 'protocols_passing', 'total_protocols', `history.${i}.`, out);
        derivedScoreIssues(row, `history.${i}.`, out);
      });
      break;
    case 'failed_sources':
      sourceIssues(obj.failed_sources, 'failed_sources.', out);
      break;
    case 'sending_services':
      sourceIssues(obj.services, 'services.', out);
      break;
    case 'mail_volume':
      windowIssues(obj, out);
      if (isObj(obj.totals)) {
        for (const part of VOLUME_PARTS) notAbove(obj.totals, part, 'total', 'totals.', out);
      }
      rows(obj.timeline).forEach((row, i) => {
        if (isObj(row)) for (const part of VOLUME_PARTS) notAbove(row, part, 'total', `timeline.${i}.`, out);
      });
      break;
    case 'dashboard_cache':
      windowIssues(obj, out);
      break;
    default:
      break;
  }
  return out;
}
