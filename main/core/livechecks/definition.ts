/**
 * What one live check is, in one place — a check the app makes itself, from the admin's side (MTA-STS over
 * HTTPS, MX STARTTLS, SPF's lookup tree, blocklists, expiry dates), never through the service's API: what it
 * is called for people, how often it runs, its caps and its on/off setting, the probe that looks, the schema
 * of what it saw, the alert rules that read its results, and how the Checks tab words a result.
 *
 * HOW A NEW CHECK REGISTERS (one file, plus its test and fixture):
 *
 *   1. Write main/core/livechecks/defs/<camelCaseName>.ts (the file's name is the check's name in camelCase:
 *      `spf_lookups` → spfLookups.ts). The folder is the registry (./checkFiles.ts loads it; the bundles get
 *      static imports of it from scripts/build-main.ts), so there is no list to edit.
 *   2. Its default export is `liveCheck('<snake_name>', { ... })` with:
 *        words       what it checks, for people ("MTA-STS policy over HTTPS")
 *        per         'domain' (one result per watched domain), 'account' (one per account: token expiry) or
 *                    'global' (one for the whole app: delivery channels; stored and alerted under the first
 *                    account, as every alert belongs to one)
 *        cadence     { periodSeconds, retrySeconds, afterDnsChange?: ['mta_sts', ...] } — the last re-runs the
 *                    check on the next tick after the DNS watch saw that protocol's TXT record change
 *        caps        { concurrency, perTick } — probes of this kind in flight and started per runner tick
 *        settingsKey its key under Settings → Live checks (`liveChecks.kinds[settingsKey]`): { enabled, ...own }
 *        settings?   { schema, defaults } of its own options beside `enabled` (zod; bad stored values → defaults)
 *        uses        what its probe needs: 'dns' (skipped while the DNS watch's resolver cannot be trusted),
 *                    'connections' (each socket first takes a slot of the global per-minute cap: ctx.connection())
 *        result      the zod schema of what it saw (stored as JSON; refused when it does not match)
 *        probe(ctx)  looks, and answers a ProbeOutcome: `checked` (with its result), `not_applicable` (e.g. no
 *                    `_mta-sts` record: its rules resolve what they had open), or `unknown` (no evidence: the
 *                    resolver failed, a timeout; its rules do NOT run, so nothing is raised or resolved —
 *                    `blocked: true` when the network itself stopped it, e.g. port 25: when every target of
 *                    a round is blocked the runner says so once, as a setting-level notice, never per domain)
 *        rules       { ruleId: { alerts: { alert_name: AlertKind }, run(before, after, ctx) } } — each rule
 *                    decides from the reading before and after a write (`LiveReading<R> | null`; after = null
 *                    when the check stopped applying). They join the alert rule registry (livechecks/ruleRegistry.ts)
 *                    and raise/resolve through the same mirror write path as every rule (inbox, channels,
 *                    silences, status verdict); a rule id must be camelCase and unique among all rules.
 *        shown       { label, text(result) → one line in words, problems(result) → what is wrong, in words
 *                    (empty: all good), details?(result) → [{ label, text }] for the Checks tab,
 *                    expiries?(result) → [{ name, notAfter }] for /metrics' days-to-expiry gauge }
 *   3. Test it against the reference world (service/: `--https-port`, `--smtp-port`, its DNS zone) or with a
 *      fake ProbeContext; the registry test fails naming a file that does not export a valid check.
 *
 * The runner (./liveCheckRunner.ts) spends 0 API requests: it reads the mirror for its targets and talks DNS,
 * HTTPS and SMTP itself. Results are stored in the mirror (live_check_results, live_check_history) by
 * `mirror.writeLiveCheck`, which runs the check's rules in the same transaction, as signal writes do.
 */
import type { z } from 'zod';
import type { AlertKind } from '../alerts/ruleDefinition.ts';
import type { AlertRuleFn } from '../alerts/types.ts';
import type { DeliveryStore } from '../mirror/deliveryTypes.ts';
import type { Mirror } from '../mirror/types.ts';
import type { Protocol } from '../signals/primitives.ts';
import type { Lookup } from '../dnswatch/watchResolver.ts';
import type { QueryType } from '../dnswatch/dnsQuery.ts';
import type { ProxyChoice } from '../network/proxyRoute.ts';

/** What a check looks at: a watched domain, or an account. */
export interface LiveTarget {
  accountId: number;
  /** The domain's remote id; null for per-account and global checks. */
  domainId: number | null;
  /** The domain's name; null for per-account checks. */
  fqdn: string | null;
}

/** A check's stored result and when it was taken. */
export interface LiveReading<R> {
  result: R;
  checkedAt: string;
}

/** What a probe answers. */
export type ProbeOutcome<R> =
  | { status: 'checked'; result: R }
  | { status: 'not_applicable'; words: string }
  | { status: 'unknown'; words: string; blocked?: boolean };

/** What a probe may use. Everything is passed in, so a probe runs in a test with fakes. */
export interface ProbeContext<S> {
  target: LiveTarget;
  /** The kind's own settings (its `settings.schema`), over its defaults. */
  settings: S;
  /** Ports the checks dial (Settings → Live checks): SMTP for MX STARTTLS, HTTPS for MTA-STS. */
  ports: { smtp: number; https: number };
  /** The DNS watch's client (its resolvers, rate cap and cache): records, absent, or unknown. */
  lookup(name: string, type: QueryType): Promise<Lookup>;
  /**
   * The addresses a host name resolves to (A, then AAAA) through the same client; `unknown` when the resolver
   * could not say, `absent` when the name has none.
   */
  addresses(
    name: string,
  ): Promise<
    { kind: 'addresses'; values: string[] } | { kind: 'absent' } | { kind: 'unknown'; reason: string }
  >;
  /**
   * One result per `key` for every probe of this kind in the current round (./roundShare.ts): a host many
   * domains name is asked once a round, and each of them gets what it answered.
   */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Waits for a slot of the global connection cap (connections a minute, across every check): call it before each socket. */
  connection(): Promise<void>;
  /** The authorities TLS connections trust: the system's plus the extra CA file (undefined: Node's own). */
  ca: readonly string[] | undefined;
  /**
   * The forward proxy an HTTPS connection to `target` goes through (Settings → Network or HTTPS_PROXY and
   * NO_PROXY), or null for direct. SMTP on port 25 is never proxied: HTTP proxies do not carry it.
   */
  proxyFor(target: URL): ProxyChoice | null;
  /** Milliseconds one network step may take. */
  timeoutMs: number;
  /** The previous result of this check for this target (what changed since). */
  previous: LiveReading<unknown> | null;
  /** Read-only access to the mirror (per-account checks read what the sync stored: tokens, VMC analyses). */
  mirror: Pick<
    Mirror,
    | 'getSetting'
    | 'listDomains'
    | 'listAccounts'
    | 'serviceSpfCount'
    | 'reportedSendingIps'
    | 'extraSignalValue'
    | 'routes'
  > & { delivery: Pick<DeliveryStore, 'failingChannels' | 'listChannels'> };
  now(): number;
  signal: AbortSignal;
}

/** How a result reads in the Checks tab. */
export interface LiveCheckShown<R> {
  label: string;
  /** One line: what it saw, in words. */
  text(result: R): string;
  /** What is wrong, each in words; empty when all is well (the result's outcome is then `ok`). */
  problems(result: R): string[];
  /** What it saw, as labelled lines (a certificate chain, a policy file). */
  details?(result: R): { label: string; text: string }[];
  /**
   * The certificates (or other dated things: a VMC, a token) it saw expire, by the name they are for:
   * /metrics exports days to expiry of each (authwatch_certificate_days_to_expiry).
   */
  expiries?(result: R): { name: string; notAfter: string }[];
}

/** One rule a check carries: the alerts it raises, and how it decides from the readings before and after. */
export interface LiveCheckRule<R> {
  alerts: Readonly<Record<string, AlertKind>>;
  run: AlertRuleFn<LiveReading<R> | null, LiveReading<R> | null>;
}

/** The declaration a check file makes (see the module's comment for each part). */
export interface LiveCheckSpec<R, S> {
  words: string;
  per: 'domain' | 'account' | 'global';
  cadence: { periodSeconds: number; retrySeconds: number; afterDnsChange?: readonly Protocol[] };
  caps: { concurrency: number; perTick: number };
  settingsKey: string;
  settings?: { schema: z.ZodType<S>; defaults: S };
  uses: readonly ('dns' | 'connections')[];
  result: z.ZodType<R>;
  probe(ctx: ProbeContext<S>): Promise<ProbeOutcome<R>>;
  rules?: Readonly<Record<string, LiveCheckRule<R>>>;
  shown: LiveCheckShown<R>;
}

const DECLARED = Symbol('authwatch.liveCheck');

/** A registered live check: its name and its spec. */
export interface LiveCheckDefinition<R = unknown, S = unknown> extends LiveCheckSpec<R, S> {
  readonly [DECLARED]: true;
  readonly name: string;
}

/** Declares a live check (the default export of its file under ./defs). */
export function liveCheck<R, S = Record<string, never>>(
  name: string,
  spec: LiveCheckSpec<R, S>,
): LiveCheckDefinition<R, S> {
  return { [DECLARED]: true, name, ...spec };
}

/** True when `value` was made by liveCheck(). */
export function isLiveCheck(value: unknown): value is LiveCheckDefinition {
  return (
    typeof value === 'object' && value !== null && (value as Partial<LiveCheckDefinition>)[DECLARED] === true
  );
}
