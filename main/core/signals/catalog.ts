/**
 * Views of the signal registry (./registry.ts) that the decoder, the poller and the mirror read: the
 * schemas, the scheduling facts and the payload types, keyed by signal name. Nothing here is written by
 * hand per signal: a signal is added by its definition alone.
 */
import type { z } from 'zod';
import type { SignalDefinition } from './definition.ts';
import type { NotFoundMeaning } from './notFound.ts';
import { SIGNAL_DEFINITIONS, type SignalName, type SignalRegistry } from './registry.ts';

export type { SignalName } from './registry.ts';

type Definitions = SignalRegistry;

/** The decoded payload type of each signal. */
export type SignalPayloads = { [S in SignalName]: z.infer<Definitions[S]['schema']> };

/** The decoded payload type of signal S. */
export type SignalPayload<S extends SignalName> = SignalPayloads[S];

/** All signal names, in registry order. */
export const SIGNAL_NAMES = Object.keys(SIGNAL_DEFINITIONS) as SignalName[];

/** Every mirrored signal's payload schema (the `data` of its v1 response), keyed by signal name. */
export const SIGNAL_SCHEMAS = Object.fromEntries(
  SIGNAL_NAMES.map((name) => [name, SIGNAL_DEFINITIONS[name].schema]),
) as { [S in SignalName]: Definitions[S]['schema'] };

/** What the scheduler needs to know about a signal. */
export interface SignalMeta {
  name: SignalName;
  /**
   * Path template relative to the base URL; `{domain_id}` is the remote domain id. For `tls_rpt` this is the
   * configuration call; see `parts`.
   */
  path: string;
  /**
   * When present, the payload is composed from several calls: the poller GETs each path and passes
   * `{ [key]: data }` (a part that answered 404 is passed as null).
   */
  parts?: Readonly<Record<string, string>>;
  /** `domain`: fetched once per domain (domainId required when writing); `account`: once per account. */
  per: 'domain' | 'account';
  /** The v1 scope the endpoint needs (an insufficient_scope error names it as the missing scope). */
  scope: 'domains:read';
  /** 1 = most urgent. The planner multiplies staleness by a weight derived from it. */
  priority: 1 | 2 | 3 | 4 | 5;
  /** Target refresh period in seconds once the signal is being tracked. */
  periodSeconds: number;
  /** True when the signal is fetched first when the user opens a domain (then every periodSeconds). */
  onDemand: boolean;
  /** True when the endpoint is a page/limit list: the poller concatenates every page's data items. */
  paginated: boolean;
  /** True when the endpoint accepts start_date/end_date (the write may then carry a window). */
  windowed: boolean;
}

function metaOf(name: SignalName): SignalMeta {
  const d = SIGNAL_DEFINITIONS[name];
  return {
    name,
    path: d.fetch.path,
    ...(d.fetch.parts ? { parts: d.fetch.parts } : {}),
    per: d.per,
    scope: d.scope,
    priority: d.plan.priority,
    periodSeconds: d.plan.periodSeconds,
    onDemand: d.plan.role === 'history' || d.plan.role === 'on_demand',
    paginated: d.fetch.paginated ?? false,
    windowed: d.fetch.windowed ?? false,
  };
}

/** Scheduling metadata of every signal, keyed by name. */
export const SIGNALS: Readonly<Record<SignalName, SignalMeta>> = Object.fromEntries(
  SIGNAL_NAMES.map((name) => [name, metaOf(name)]),
) as Record<SignalName, SignalMeta>;

/** True when `name` is a mirrored signal. */
export function isSignalName(name: string): name is SignalName {
  return Object.hasOwn(SIGNAL_DEFINITIONS, name);
}

/** The signals whose plan has this role, in registry order. */
export function signalsWithRole(role: Definitions[SignalName]['plan']['role']): SignalName[] {
  return SIGNAL_NAMES.filter((name) => SIGNAL_DEFINITIONS[name].plan.role === role);
}

/**
 * What a 404 not_found from the signal's calls means, as its definition declares it (./notFound.ts). The
 * fetcher and the tests' fake services read it here alike; the domain list has no domain to be gone, and its
 * 404 is a failure like any other.
 */
export function notFoundMeaning(name: SignalName): NotFoundMeaning {
  const d: SignalDefinition = SIGNAL_DEFINITIONS[name];
  return d.per === 'domain' ? d.fetch.notFound : 'domain_gone';
}

/** The signal one of whose calls is GET `path` (a path template), or null. */
export function signalOfPath(path: string): SignalName | null {
  return (
    SIGNAL_NAMES.find((name) => {
      const meta = SIGNALS[name];
      return meta.path === path || Object.values(meta.parts ?? {}).includes(path);
    }) ?? null
  );
}
