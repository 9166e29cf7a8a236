import { ApiError } from '../../../shared/api/apiError.ts';
import {
  decodeSignal,
  notFoundMeaning,
  SIGNAL_NAMES,
  SIGNALS,
  type SignalName,
  type SignalPayload,
} from '../signals/index.ts';
import { setApartBadDomainRows } from '../signals/domainRows.ts';
import { isNotFoundAnswer } from '../signals/notFound.ts';
import { SIGNAL_DEFINITIONS } from '../signals/registry.ts';
import type { BudgetPriority } from '../../../shared/api/rateBudget.ts';
import type { LooseApi, LooseCallInit } from './looseApi.ts';

/** Days of history fetched the first time a windowed signal of a domain is synced. */
export const BACKFILL_DAYS = 90;
/** The window the interface uses by default; later fetches of non-incremental signals ask for it. */
export const DEFAULT_WINDOW_DAYS = 30;
/** Signals fetched incrementally (their definition says from where: fetch.incremental). */
export const INCREMENTAL: ReadonlySet<SignalName> = new Set(
  SIGNAL_NAMES.filter((name) => SIGNAL_DEFINITIONS[name].fetch.incremental !== undefined),
);

/**
 * Where an incremental fetch of `signal` starts (the `lastSeen` of fetchWindow). DNS changes start from the
 * newest event held. The history series start from their own last read, not from the newest point held:
 * the health polls write the newest points themselves (the history is derived from them), so the newest
 * point says nothing of what the series holds. Never read → null: the first read backfills BACKFILL_DAYS.
 */
export function incrementalStart(
  signal: SignalName,
  ownLastSuccessAt: number | null,
  newestHeld: () => string | null,
): string | null {
  const incremental = SIGNAL_DEFINITIONS[signal].fetch.incremental;
  if (incremental === undefined) return null;
  if (incremental === 'newest_held') return newestHeld();
  return ownLastSuccessAt === null ? null : new Date(ownLastSuccessAt).toISOString();
}

/** Lists that take only `limit` (default 10): asked for the interface's maximum of 100. */
const LIMIT_ONLY: ReadonlySet<SignalName> = new Set(
  SIGNAL_NAMES.filter((name) => SIGNAL_DEFINITIONS[name].fetch.limitOnly === true),
);

/** What a fetch needs to know beyond the signal. */
export interface FetchContext {
  api: LooseApi;
  /** Remote domain id (null for account-level signals). */
  domainId: number | null;
  /** The domain's name as the mirror knows it: a per-domain answer about another domain is malformed. */
  fqdn?: string | null;
  now: number;
  /** The newest remote timestamp/date the mirror holds for this signal (mirror.lastSeen), or null. */
  lastSeen: string | null;
  signal?: AbortSignal;
  /** Budget priority: background for the schedule, foreground for re-polls right after the user's edit. */
  priority?: BudgetPriority;
}

/** A decoded signal ready for mirror.writeSignal. */
export interface FetchedSignal<S extends SignalName = SignalName> {
  signal: S;
  payload: SignalPayload<S>;
  window?: { start: string; end: string };
  /** The domain list only: entries set apart because they break the interface on their own, in words. */
  skipped?: { words: string[]; ids: number[] };
}

/** YYYY-MM-DD of an instant, in UTC (the interface's dates are UTC calendar days). */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/** The start_date/end_date window of a windowed signal's next fetch. */
export function fetchWindow(
  signal: SignalName,
  now: number,
  lastSeen: string | null,
): { start: string; end: string } {
  const end = utcDate(now);
  if (INCREMENTAL.has(signal)) {
    const seen = lastSeen ? Date.parse(lastSeen) : Number.NaN;
    // The seen day is fetched again (dates are inclusive); the mirror dedupes by event id / timestamp.
    if (Number.isFinite(seen) && seen <= now) return { start: utcDate(seen), end };
    return { start: utcDate(now - BACKFILL_DAYS * DAY_MS), end };
  }
  return { start: utcDate(now - DEFAULT_WINDOW_DAYS * DAY_MS), end };
}

/**
 * The answer to one signal's calls as the fetcher hands it to the decoder: every page of a list, each part of
 * a composed signal by its key, null for a 404 the definition declares absent. Undecoded: what
 * `npm run record:answer` keeps as a fixture (scripts/recordAnswer.ts).
 */
export async function fetchAnswer(
  signal: SignalName,
  ctx: FetchContext,
): Promise<{ data: unknown; window?: { start: string; end: string } }> {
  const meta = SIGNALS[signal];
  const pathParams = ctx.domainId === null ? undefined : { domain_id: ctx.domainId };
  const window = meta.windowed ? fetchWindow(signal, ctx.now, ctx.lastSeen) : undefined;
  const query: Record<string, string | number> = {};
  if (window) Object.assign(query, { start_date: window.start, end_date: window.end });
  // Lists with only `limit` get the largest page the interface allows, so one call covers the window.
  if (LIMIT_ONLY.has(signal)) query.limit = 100;
  const init = (path?: Record<string, number>): LooseCallInit => ({
    params: { ...(path ? { path } : {}), query },
    priority: ctx.priority ?? 'background',
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });

  // What a 404 means is the definition's (signals/notFound.ts): `absent` is a null answer (or part); any
  // other 404 is thrown, and the job runner checks whether the domain left the account's list.
  const notFound = notFoundMeaning(signal);
  const orAbsent = async (call: () => Promise<unknown>): Promise<unknown> => {
    try {
      return await call();
    } catch (error) {
      if (notFound === 'absent' && isNotFoundAnswer(error)) return null;
      throw error;
    }
  };

  let data: unknown;
  if (meta.parts) {
    const composed: Record<string, unknown> = {};
    for (const [key, path] of Object.entries(meta.parts)) {
      composed[key] = await orAbsent(
        async () =>
          (await ctx.api.get(path, { ...init(pathParams), params: { path: pathParams ?? {} } })).data,
      );
    }
    data = composed;
  } else if (meta.paginated) {
    data = await orAbsent(async () => {
      const items: unknown[] = [];
      for await (const item of ctx.api.paginate(meta.path, init(pathParams), { limit: 100 }))
        items.push(item);
      return items;
    });
  } else {
    data = await orAbsent(async () => (await ctx.api.get(meta.path, init(pathParams))).data);
  }
  return { data, ...(window ? { window } : {}) };
}

/** Fetches one signal of one domain (all pages, all parts), decodes it, and throws ApiError on any failure. */
export async function fetchSignal<S extends SignalName>(
  signal: S,
  ctx: FetchContext,
): Promise<FetchedSignal<S>> {
  const meta = SIGNALS[signal];
  const { data: answer, window } = await fetchAnswer(signal, ctx);
  let data = answer;

  let skipped: FetchedSignal['skipped'];
  if (signal === 'domains' && Array.isArray(data)) {
    const apart = setApartBadDomainRows(data);
    data = apart.rows;
    if (apart.skipped.length > 0) skipped = { words: apart.skipped, ids: apart.skippedIds };
  }
  const decoded = decodeSignal(signal, data, { domainId: ctx.domainId, fqdn: ctx.fqdn ?? null });
  if (!decoded.ok) {
    throw new ApiError({
      status: 200,
      code: 'malformed_response',
      message: `The server's ${signal} data does not match the interface: ${decoded.error.message}`,
      requestId: '',
      retryable: false,
      details: decoded.error.issues,
      method: 'GET',
      path: meta.path,
    });
  }
  return { signal, payload: decoded.value, ...(window ? { window } : {}), ...(skipped ? { skipped } : {}) };
}
