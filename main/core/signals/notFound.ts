/**
 * What a 404 `not_found` from one of a signal's calls means — declared by every signal definition
 * (`fetch.notFound`), and read here by both the fetcher (main/core/sync/signalFetcher.ts) and the tests' fake
 * services, so the two cannot disagree about a signal and a new signal cannot fail far from its cause.
 *
 * - `absent`: the domain has not set the feature up (no MTA-STS policy, no TLS-RPT): the answer is null — the
 *   part that answered 404, or the whole payload for a signal of one call (its schema must accept null).
 * - `domain_gone`: the service no longer knows the domain: the sync fetches the domain list again to see
 *   whether it was removed (main/core/sync/jobRunner.ts), in a commit of its own.
 *
 * There is no default: a definition without it is refused when the registry loads, naming its file, because
 * a guessed meaning is how a new signal used to re-fetch the domain list on every 404 without anyone asking.
 */
import { isApiError } from '../../../shared/api/apiError.ts';

/** What a 404 not_found from a signal's call means. */
export type NotFoundMeaning = 'absent' | 'domain_gone';

/** The meanings a definition may declare, in words (the registry's refusal lists them). */
export const NOT_FOUND_MEANINGS: Readonly<Record<NotFoundMeaning, string>> = {
  absent: 'the domain has not set it up: the answer is null',
  domain_gone: 'the service no longer knows the domain: the domain list is fetched again',
};

/** True for a declared meaning. */
export function isNotFoundMeaning(value: unknown): value is NotFoundMeaning {
  return typeof value === 'string' && Object.hasOwn(NOT_FOUND_MEANINGS, value);
}

/**
 * True when `error` is the interface's own 404 answer (`not_found` in its error envelope). A 404 without the
 * envelope (a proxy's page, a cut body) is not the service speaking, and means neither.
 */
export function isNotFoundAnswer(error: unknown): boolean {
  return isApiError(error) && error.status === 404 && error.code === 'not_found';
}
