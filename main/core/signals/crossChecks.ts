/**
 * The checks of a decoded answer beyond its schema: a per-domain answer is about the domain that was asked
 * for, and the signal's own cross-field rules (its definition's crossCheck, built from consistency.ts) hold.
 * Each broken rule is an issue like a type error: the answer is malformed and the mirror keeps what it had.
 */
import type { DocumentIssue } from './documentCheck.ts';
import { isObj } from './consistency.ts';
import { SIGNAL_DEFINITIONS } from './registry.ts';
import type { SignalName } from './catalog.ts';

/** The domain a per-domain answer must be about (domainId null for account-level signals). */
export interface DecodeSubject {
  domainId: number | null;
  /** The domain's name as the mirror knows it; checked when given. */
  fqdn?: string | null;
}

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

/** The cross-field rules `value` (an answer that already matches its schema) breaks. */
export function crossCheckIssues(name: SignalName, value: unknown, subject?: DecodeSubject): DocumentIssue[] {
  const out: DocumentIssue[] = [];
  const definition = SIGNAL_DEFINITIONS[name];
  if (subject) {
    // A composed answer is checked part by part: each part is one call's answer.
    const parts = definition.fetch.parts;
    if (parts && isObj(value)) {
      for (const key of Object.keys(parts)) subjectIssues(value[key], subject, `${key}.`, out);
    } else subjectIssues(value, subject, '', out);
  }
  // The definition's own rules take its payload type; the value matched that schema.
  (definition.crossCheck as ((value: unknown, out: DocumentIssue[]) => void) | undefined)?.(value, out);
  return out;
}
