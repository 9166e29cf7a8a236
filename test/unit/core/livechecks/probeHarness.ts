/**
 * A live check's probe run against an in-memory DNS zone and a mirror, its outcome written as the runner
 * writes it: the check files' tests drive their probes and rules through this without sockets.
 */
import type { DnsRecordType, StaticResolver } from '../../../../shared/email-auth/dns.ts';
import type { Lookup } from '../../../../main/core/dnswatch/watchResolver.ts';
import type {
  LiveCheckDefinition,
  ProbeContext,
  ProbeOutcome,
} from '../../../../main/core/livechecks/definition.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { DOMAIN_ID } from '../mirror/payloads.ts';

/** The zone's answers as the DNS watch's client gives them; `failing` names answer as a resolver failure. */
export function zoneLookup(zone: StaticResolver, failing: ReadonlySet<string> = new Set()) {
  return async (name: string, type: string): Promise<Lookup> => {
    if (failing.has(name))
      return { kind: 'unknown', reason: 'the resolver answered SERVFAIL', server: 'test' };
    try {
      const answer = (await zone(name, type as DnsRecordType as 'A')) as unknown[];
      const values = answer.map((a) =>
        Array.isArray(a)
          ? (a as string[])
          : typeof a === 'object' && a
            ? [String((a as { priority: number }).priority), (a as { exchange: string }).exchange]
            : [String(a)],
      );
      return { kind: 'records', values, ttl: 60, cnames: [], server: 'test' };
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA')
        return {
          kind: 'absent',
          rcode: code === 'ENOTFOUND' ? 'NXDOMAIN' : 'NODATA',
          ttl: 60,
          cnames: [],
          server: 'test',
        };
      return { kind: 'unknown', reason: code ?? 'error', server: 'test' };
    }
  };
}

/** Runs `check`'s probe for example.com (or the account) and writes its outcome; answers the write's result. */
export async function probeAndWrite<R, S>(
  check: LiveCheckDefinition<R, S>,
  o: {
    mirror: Mirror;
    accountId: number;
    lookup: ProbeContext<S>['lookup'];
    settings?: S;
    now?: number;
    at?: string;
    /** What a dial answers (default: dial for real); MX STARTTLS dials through it, so a test answers each host. */
    shared?: ProbeContext<S>['shared'];
    proxyFor?: ProbeContext<S>['proxyFor'];
  },
) {
  const perDomain = check.per === 'domain';
  const target = {
    accountId: o.accountId,
    domainId: perDomain ? DOMAIN_ID : null,
    fqdn: perDomain ? 'example.com' : null,
  };
  const ctx: ProbeContext<S> = {
    target,
    settings: o.settings ?? (check.settings?.defaults as S),
    ports: { smtp: 25, https: 443 },
    lookup: o.lookup,
    // One probe: nothing to share with.
    shared: o.shared ?? ((_key, make) => make()),
    addresses: async (name) => {
      const values: string[] = [];
      for (const type of ['A', 'AAAA'] as const) {
        const found = await o.lookup(name, type);
        if (found.kind === 'unknown') return { kind: 'unknown', reason: found.reason };
        if (found.kind === 'records') values.push(...found.values.map((v) => v[0] ?? ''));
      }
      return values.length ? { kind: 'addresses', values } : { kind: 'absent' };
    },
    connection: async () => {},
    ca: undefined,
    proxyFor: o.proxyFor ?? (() => null),
    timeoutMs: 1000,
    previous: null,
    mirror: o.mirror,
    now: () => o.now ?? Date.parse(o.at ?? '2026-11-01T00:00:00Z'),
    signal: new AbortController().signal,
  };
  const outcome = await check.probe(ctx);
  const written = writeOutcome(check, o.mirror, o.accountId, outcome, o.at);
  return { outcome, written };
}

/** Writes a probe's outcome for example.com (or the account) as the runner does: its words, status and alerts. */
export function writeOutcome<R, S>(
  check: LiveCheckDefinition<R, S>,
  mirror: Mirror,
  accountId: number,
  outcome: ProbeOutcome<R>,
  at?: string,
) {
  const write =
    outcome.status === 'checked'
      ? {
          status: check.shown.problems(outcome.result).length ? ('problem' as const) : ('ok' as const),
          words: check.shown.text(outcome.result),
          result: outcome.result,
        }
      : outcome.status === 'not_applicable'
        ? { status: 'not_applicable' as const, words: outcome.words, result: null }
        : { status: 'unknown' as const, words: outcome.words };
  const domainId = check.per === 'domain' ? DOMAIN_ID : null;
  return mirror.writeLiveCheck({ check: check.name, accountId, domainId, dnsSeen: null, ...write }, at);
}
