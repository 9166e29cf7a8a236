/**
 * The bulk add's list of names, line by line (pure): which lines are names shared/email-auth accepts, and
 * which are not and why, by their line number in the text as typed, so the form can offer to send the valid
 * ones and say exactly which it skips.
 */
import { domainNameProblem } from '../../../shared/email-auth/domainName.ts';

export interface BulkLine {
  /** 1-based line number in the text as typed (blank lines count). */
  line: number;
  text: string;
  reason: string;
}

export interface BulkDomains {
  /** The valid names, as sent (trimmed, one trailing dot dropped), first occurrence of each. */
  valid: string[];
  /** The lines that are not sent, in order: not a domain name, or a name listed on an earlier line. */
  invalid: BulkLine[];
}

/** Splits the textarea's text into the names to send and the lines to skip (blank lines are neither). */
export function bulkDomains(text: string): BulkDomains {
  const valid: string[] = [];
  const invalid: BulkLine[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const name = raw.trim();
    if (name === '') return;
    const problem = domainNameProblem(name);
    if (problem) {
      invalid.push({ line: i + 1, text: name, reason: problem });
      return;
    }
    const normal = name.replace(/\.$/, '');
    const key = normal.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      invalid.push({ line: i + 1, text: name, reason: `repeats line ${first}` });
      return;
    }
    seen.set(key, i + 1);
    valid.push(normal);
  });
  return { valid, invalid };
}

/** The outcome line's account of what was skipped: "skipped line 3 (not a domain: has a space), …". */
export function skippedSummary(invalid: readonly BulkLine[]): string {
  if (invalid.length === 0) return '';
  return `Skipped ${invalid.length} line${invalid.length === 1 ? '' : 's'}: ${invalid
    .map((l) => `line ${l.line} "${l.text}" (${l.reason})`)
    .join('; ')}.`;
}
