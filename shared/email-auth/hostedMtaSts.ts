/**
 * A hosted MTA-STS policy as the v1 interface changes it: what setup and reset write (mode none, the live MX
 * hosts, max_age one week), what a policy update or a mode change leaves, and the policy id announced in the
 * `_mta-sts` record, which changes whenever the served file changes. The service applies edits with these and
 * the app previews them with the same functions.
 */
import type { ParseResult } from './issues.ts';
import {
  formatMtaStsPolicy,
  mtaStsPolicyId,
  parseMtaStsPolicy,
  validateMtaStsPolicy,
  MTA_STS_DEFAULT_MAX_AGE,
  type MtaStsPolicy,
} from './mtaStsPolicy.ts';

/** The policy of setup and reset: mode none, the given MX hosts, max_age one week. */
export function defaultMtaStsPolicy(mx: string[]): MtaStsPolicy {
  return { version: 'STSv1', mode: 'none', max_age: MTA_STS_DEFAULT_MAX_AGE, mx };
}

/** The body of PATCH /mta-sts/policy: the whole file, or mode and max_age with optional mx hosts. */
export interface MtaStsPolicyUpdate {
  policy_text?: unknown;
  mode?: unknown;
  max_age?: unknown;
  mx?: unknown;
}

/**
 * The policy an update leaves: the file parsed when `policy_text` is given (its errors then concern the text
 * as a whole, `fromText`), else mode and max_age with the mx hosts given, or the current ones when omitted.
 */
export function updatedMtaStsPolicy(
  current: MtaStsPolicy,
  body: MtaStsPolicyUpdate,
): { result: ParseResult<MtaStsPolicy>; fromText: boolean } {
  if (typeof body.policy_text === 'string')
    return { result: parseMtaStsPolicy(body.policy_text), fromText: true };
  return {
    result: validateMtaStsPolicy({ mode: body.mode, max_age: body.max_age, mx: body.mx ?? current.mx }),
    fromText: false,
  };
}

/** The policy a mode change leaves: the mode set, max_age kept, the mx lines refreshed from live DNS. */
export function mtaStsPolicyWithMode(
  current: MtaStsPolicy,
  mode: unknown,
  liveMx: string[],
): ParseResult<MtaStsPolicy> {
  return validateMtaStsPolicy({ mode, max_age: current.max_age, mx: liveMx });
}

/**
 * A policy id newer than `previous`: the timestamp id of `now`, with a counter appended when the clock has
 * not moved past the previous id (two changes in one second must still give two ids).
 */
export function nextMtaStsPolicyId(previous: string | null, now: Date): string {
  const base = mtaStsPolicyId(now);
  if (previous === null || !previous.startsWith(base)) return base;
  const counter = Number(previous.slice(base.length) || '0') + 1;
  return `${base}${counter}`;
}

/** The id announced after saving `next`: unchanged when the served file is the same, else a newer one. */
export function mtaStsPolicyIdAfter(
  current: { policy: MtaStsPolicy; id: string } | null,
  next: MtaStsPolicy,
  now: Date,
): string {
  if (current && formatMtaStsPolicy(current.policy) === formatMtaStsPolicy(next)) return current.id;
  return nextMtaStsPolicyId(current?.id ?? null, now);
}
