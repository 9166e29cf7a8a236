/**
 * The DNS watch: every domain in the mirror, its five protocol records asked of DNS directly, outside the
 * API's rate budget and without a token. Each record is asked again when its answer's TTL runs out (within
 * the user's floor and ceiling, plus up to 10 % jitter so thousands of records do not fall due together),
 * sooner while a change waits for confirmation (confirmation.ts). Answers go to the mirror in one transaction
 * per tick; a confirmed change runs the same protocol rules as the service's health.
 */
import type { ApiClock } from '../../../shared/api/clock.ts';
import { PROTOCOLS, recordName, type Protocol } from '../../../shared/email-auth/protocols.ts';
import type { DnsWatchRecord } from '../mirror/dnsWatchStore.ts';
import type { DnsWatchWrite, Mirror, WriteResult } from '../mirror/types.ts';
import {
  DEFAULT_CONFIRM_RULES,
  INITIAL_CONFIRM_STATE,
  observe,
  type ConfirmRules,
  type ConfirmState,
} from './confirmation.ts';
import { ApexWatch } from './apexWatch.ts';
import { Semaphore } from './rateCap.ts';
import { judgeRecord, type Judgement } from './recordJudge.ts';
import { apexFrom, ResolverTrust, type ApexState, type TrustVerdict } from './resolverTrust.ts';
import type { Lookup, WatchResolver } from './watchResolver.ts';

/** The watch's pacing, as the user sets it. */
export interface WatchCadence {
  /** Never ask a record again sooner than this (seconds), whatever its TTL. */
  floorSeconds: number;
  /** Ask at least this often (seconds), however long its TTL. */
  ceilingSeconds: number;
  /** Records checked at once. */
  concurrency: number;
}

export interface DnsWatcherOptions {
  mirror: Mirror;
  resolver: WatchResolver;
  clock: ApiClock;
  cadence: WatchCadence;
  /** Queries a second the resolver allows across its servers (sizes each tick's share). */
  queriesPerSecond: number;
  confirm?: ConfirmRules;
  /** Called after each tick's write (deliver alerts, tell the UI of the domains whose answers changed). */
  afterWrite?: (result: WriteResult, changed: { accountId: number; domainId: number }[]) => Promise<void>;
  /** How often the list of domains is read again from the mirror (ms, default 30 s). */
  domainsEveryMs?: number;
}

interface Owner {
  accountId: number;
  domainId: number;
}

interface Tracked {
  fqdn: string;
  protocol: Protocol;
  due: number;
  fresh: boolean;
  confirm: ConfirmState;
  /** The latest answer that agreed with the confirmed state (epoch ms). */
  agreedAt: number | null;
  /** What the last answer said (answer, value, reason, state): a change is news for the screens. */
  said: string;
  /** When it was last asked (epoch ms; -Infinity: not since this watcher started). */
  askedAt: number;
  /** It has worked at some point (this run, or as the mirror last knew it): its loss or return is news. */
  everConnected: boolean;
  owners: Owner[];
}

/** Freshness and pace of the watch, for Settings and `authwatch status`. */
export interface DnsWatchStats {
  servers: string[];
  records: number;
  queriesSent: number;
  /** Queries a second over the last minute. */
  queriesPerSecond: number;
  /** Records asked per second over the last minute. */
  checksPerSecond: number;
  /** Seconds a full round of every record takes at the rate cap (0 with no records). */
  roundSeconds: number;
  lastTickAt: string | null;
}

/** One record's answer before the resolver's standing is known for the whole batch. */
interface Asked {
  t: Tracked;
  name: string;
  lookup: Lookup;
  judged: Judgement;
  /** What the answers said of the domain's own name (null: nothing). */
  apex: ApexState | null;
  at: number;
}

/** Checks whose answers are still kept for the last-minute rates. */
const RATE_WINDOW_MS = 60_000;

/** Watches every domain of the mirror; call tick() once a second. */
export class DnsWatcher {
  private readonly tracked = new Map<string, Tracked>();
  private readonly semaphore: Semaphore;
  private domainsReadAt = -Infinity;
  private lastTickAt: number | null = null;
  private samples: { at: number; queries: number; checks: number }[] = [];
  private checks = 0;
  private readonly resolverTrust: ResolverTrust;
  private standing: TrustVerdict = { trusted: true };
  private readonly apexWatch: ApexWatch;
  /** A domain went from resolving to NXDOMAIN in this tick's answers. */
  private stoppedResolving = false;

  constructor(private readonly o: DnsWatcherOptions) {
    this.semaphore = new Semaphore(o.cadence.concurrency);
    this.resolverTrust = new ResolverTrust(o.resolver, o.cadence.ceilingSeconds * 1000);
    this.apexWatch = new ApexWatch(o.confirm ?? DEFAULT_CONFIRM_RULES);
  }

  /** Whether the resolver's answers are evidence now (resolverTrust.ts). */
  trust(): TrustVerdict {
    return this.standing;
  }

  /** Reads the mirror's live domains; new records fall due at once, records of gone domains are dropped. */
  private readDomains(now: number): void {
    const owners = new Map<string, Owner[]>();
    for (const account of this.o.mirror.listAccounts()) {
      for (const d of this.o.mirror.listDomains(account.id)) {
        const fqdn = d.fqdn.toLowerCase();
        const list = owners.get(fqdn) ?? [];
        list.push({ accountId: account.id, domainId: d.domainId });
        owners.set(fqdn, list);
      }
    }
    for (const [key, t] of this.tracked) if (!owners.has(t.fqdn)) this.tracked.delete(key);
    this.resolverTrust.keepOnly(new Set(owners.keys()));
    this.apexWatch.keepOnly(new Set(owners.keys()));
    for (const [fqdn, list] of owners) {
      for (const protocol of PROTOCOLS) {
        const key = `${fqdn} ${protocol}`;
        const existing = this.tracked.get(key);
        if (existing) {
          existing.owners = list;
          continue;
        }
        this.tracked.set(key, this.resume(fqdn, protocol, list, now));
      }
    }
    this.domainsReadAt = now;
  }

  /** A record as the mirror last knew it: its confirmed state survives a restart, its next ask follows its TTL. */
  private resume(fqdn: string, protocol: Protocol, owners: Owner[], now: number): Tracked {
    const first = owners[0]!;
    const kept = this.o.mirror
      .dnsWatchRecords(first.accountId, first.domainId)
      .find((r) => r.protocol === protocol);
    if (!kept || kept.state === null || kept.stateSince === null) {
      return {
        fqdn,
        protocol,
        due: now,
        fresh: false,
        confirm: INITIAL_CONFIRM_STATE,
        agreedAt: null,
        said: '',
        askedAt: -Infinity,
        everConnected: false,
        owners,
      };
    }
    const confirm: ConfirmState = {
      confirmed: kept.state,
      confirmedSince: Date.parse(kept.stateSince),
      run: null,
      transitions: [],
    };
    const due = Math.min(now + this.periodMs(kept.ttl), Date.parse(kept.checkedAt) + this.periodMs(kept.ttl));
    const agreedAt = kept.stateCheckedAt === null ? null : Date.parse(kept.stateCheckedAt);
    const said = JSON.stringify([kept.answer, kept.value, kept.reason, kept.state]);
    // (A record that was disconnected when the watch stopped counts as never connected: it is still asked at
    // least once per ceiling, and its return moves it up again.)
    const everConnected = kept.state === 'connected';
    return {
      fqdn,
      protocol,
      due,
      fresh: false,
      confirm,
      agreedAt,
      said,
      askedAt: -Infinity,
      everConnected,
      owners,
    };
  }

  private periodMs(ttl: number | null): number {
    const { floorSeconds, ceilingSeconds } = this.o.cadence;
    const seconds = Math.min(ceilingSeconds, Math.max(floorSeconds, ttl ?? floorSeconds));
    // Jitter only upwards: asking before the TTL ran out would get the cached answer again.
    return seconds * 1000 * (1 + 0.1 * this.o.clock.random());
  }

  /**
   * Which due records go first when the rate cap cannot ask them all this second (thousands of domains):
   * 0 — a change waiting for its confirmation (few, and an alert hangs on them: behind a backlog each
   *     confirmation would wait a whole round);
   * 1 — records that work now, worked before (an open disconnect waits for their return), or are not judged
   *     yet: losing one is the alert the watch exists for;
   * 2 — records absent or invalid since the watch first saw them (most are optional protocols never set up):
   *     their news is good news, so they take what rate is left — but never wait more than the ceiling
   *     beyond their due time.
   */
  private urgency(t: Tracked, now: number, ceilingMs: number): number {
    if (t.fresh) return 0;
    if (t.confirm.confirmed !== 'disconnected' || t.everConnected || now - t.due >= ceilingMs) return 1;
    return 2;
  }

  /** One pass: ask the records due now (as many as the rate cap allows this second), store the answers. */
  async tick(): Promise<WriteResult> {
    const now = this.o.clock.now();
    if (now - this.domainsReadAt >= (this.o.domainsEveryMs ?? 30_000)) this.readDomains(now);
    const ceilingMs = this.o.cadence.ceilingSeconds * 1000;
    const due = [...this.tracked.values()]
      .filter((t) => t.due <= now)
      .map((t) => ({ t, rank: this.urgency(t, now, ceilingMs) }))
      .sort((a, b) => a.rank - b.rank || a.t.due - b.t.due)
      .map((x) => x.t);
    // A second's worth of queries per tick: the rest stay due for the next ticks (the buckets would make
    // them wait anyway, and a short tick writes its answers sooner).
    const batch = due.slice(0, Math.max(1, Math.floor(this.o.queriesPerSecond)));
    const sentBefore = this.o.resolver.queriesSent;
    await this.resolverTrust.probeRoot(now);
    this.stoppedResolving = false;
    const asked = await Promise.all(batch.map((t) => this.semaphore.run(() => this.ask(t))));
    // A domain that just stopped resolving may be the first sign of a resolver turning liar: ask the root now.
    if (this.stoppedResolving) await this.resolverTrust.probeRoot(this.o.clock.now(), true);
    // The resolver's standing from every answer of the batch (a lie about every domain shows only across them).
    this.standing = this.resolverTrust.verdict();
    const writes = new Map<string, DnsWatchWrite>();
    const changed = new Map<string, { accountId: number; domainId: number }>();
    for (const a of asked) {
      const record = this.settle(a);
      const apex = this.apexStep(a);
      const said = JSON.stringify([record.answer, record.value, record.reason, record.state]);
      const news = said !== a.t.said;
      a.t.said = said;
      for (const owner of a.t.owners) {
        const key = `${owner.accountId} ${owner.domainId}`;
        if (news) changed.set(key, owner);
        const write = writes.get(key) ?? { ...owner, records: [] };
        write.records.push(record);
        if (apex) write.apex = apex;
        writes.set(key, write);
      }
    }
    const end = this.o.clock.now();
    this.lastTickAt = end;
    this.checks += batch.length;
    this.samples.push({ at: end, queries: this.o.resolver.queriesSent - sentBefore, checks: batch.length });
    this.samples = this.samples.filter((s) => end - s.at <= RATE_WINDOW_MS);
    if (writes.size === 0) return { alerts: [], resolved: [] };
    const result = this.o.mirror.writeDnsWatch([...writes.values()], end);
    await this.o.afterWrite?.(result, [...changed.values()]);
    return result;
  }

  /** Asks one record (always of the server: its pace is the watcher's) and judges the answer. */
  private async ask(t: Tracked): Promise<Asked> {
    const name = recordName(t.protocol, t.fqdn);
    // Every due ask goes to the server: the record's pace is the watcher's (its TTL within the floor and
    // the ceiling), and an answer cached by another path (an SPF include naming this domain) would let a
    // record go unchecked past the ceiling.
    const lookup = await this.o.resolver.lookup(name, 'TXT', { fresh: true });
    const judged = await judgeRecord(t.protocol, t.fqdn, lookup, this.o.resolver.asDnsResolve());
    let apex = apexFrom(lookup, name === t.fqdn);
    let server = lookup.server;
    if (apex === null && lookup.kind === 'absent') {
      // NXDOMAIN below the apex: whether the domain itself exists decides what it means (cached ≤ ceiling).
      const top = await this.o.resolver.lookup(t.fqdn, 'TXT');
      apex = apexFrom(top, true);
      server = top.server;
    }
    const at = this.o.clock.now();
    if (this.resolverTrust.note(t.fqdn, apex, server, name === t.fqdn ? at : null))
      this.stoppedResolving = true;
    return { t, name, lookup, judged, apex, at };
  }

  /**
   * What an answer is worth: nothing from a resolver that cannot be trusted, nothing for a domain whose own
   * name does not resolve (its own alert speaks: apexStep), nothing for "absent" when whether the domain
   * exists is not known; else the judgement.
   */
  private evidence(a: Asked): Judgement {
    const unknown = (reason: string): Judgement => ({ answer: 'unknown', value: a.judged.value, reason });
    if (!this.standing.trusted) return unknown('the resolver cannot be trusted');
    if (a.apex === 'nxdomain') return unknown(`${a.t.fqdn} itself does not resolve (NXDOMAIN)`);
    if (a.apex === null && a.judged.answer === 'absent')
      return unknown(`whether ${a.t.fqdn} itself exists is not known`);
    return a.judged;
  }

  /** Folds an answer into the record's confirmed state and schedules its next ask. */
  private settle(a: Asked): DnsWatchRecord {
    const { t, lookup, at } = a;
    const judged = this.evidence(a);
    t.askedAt = at;
    const ttl = lookup.kind === 'unknown' ? null : lookup.ttl;
    let recheck = false;
    if (judged.answer !== 'unknown') {
      const step = observe(
        t.confirm,
        judged.answer === 'present' ? 'connected' : 'disconnected',
        at,
        this.o.confirm ?? DEFAULT_CONFIRM_RULES,
      );
      t.confirm = step.state;
      recheck = step.recheck;
      if (t.confirm.confirmed === 'connected') t.everConnected = true;
    }
    const spacing = (this.o.confirm ?? DEFAULT_CONFIRM_RULES).confirmSpacingMs;
    t.fresh = recheck;
    t.due = recheck ? at + spacing : at + this.periodMs(ttl);
    if (
      t.confirm.run !== null &&
      t.confirm.run.evidence === t.confirm.confirmed &&
      judged.answer !== 'unknown'
    )
      t.agreedAt = at;
    return {
      protocol: t.protocol,
      name: a.name,
      answer: judged.answer,
      value: judged.value,
      reason: judged.reason,
      ttl,
      resolver: lookup.server,
      checkedAt: new Date(at).toISOString(),
      state: t.confirm.confirmed,
      stateSince: t.confirm.confirmedSince === null ? null : new Date(t.confirm.confirmedSince).toISOString(),
      stateCheckedAt: t.agreedAt === null ? null : new Date(t.agreedAt).toISOString(),
    };
  }

  /** The domain's own name (apexWatch.ts), from the SPF check while the resolver is trusted. */
  private apexStep(a: Asked): DnsWatchWrite['apex'] {
    if (a.t.protocol !== 'spf' || !this.standing.trusted || a.apex === null) return undefined;
    const fqdn = a.t.fqdn;
    const resolvedBefore = PROTOCOLS.some((p) => this.tracked.get(`${fqdn} ${p}`)?.everConnected === true);
    const step = this.apexWatch.step(fqdn, a.apex, a.at, a.lookup.server, resolvedBefore, (since) =>
      this.resolverTrust.othersResolvedSince(fqdn, since),
    );
    if (step.recheck) {
      a.t.fresh = true;
      a.t.due = a.at + (this.o.confirm ?? DEFAULT_CONFIRM_RULES).confirmSpacingMs;
    }
    return step.tell;
  }

  /** Asks every record of every domain once now (a one-shot sync's check), then returns what it raised. */
  async round(): Promise<WriteResult> {
    const start = this.o.clock.now();
    this.readDomains(start);
    for (const t of this.tracked.values()) t.due = Math.min(t.due, start);
    const result: WriteResult = { alerts: [], resolved: [] };
    while ([...this.tracked.values()].some((t) => t.askedAt < start)) {
      const r = await this.tick();
      result.alerts.push(...r.alerts);
      result.resolved.push(...r.resolved);
    }
    return result;
  }

  /** Pace and freshness now. */
  stats(): DnsWatchStats {
    const seconds = RATE_WINDOW_MS / 1000;
    const queries = this.samples.reduce((n, s) => n + s.queries, 0);
    const checks = this.samples.reduce((n, s) => n + s.checks, 0);
    const records = this.tracked.size;
    const perCheck = this.checks > 0 ? Math.max(1, this.o.resolver.queriesSent / this.checks) : 1;
    return {
      servers: this.o.resolver.labels,
      records,
      queriesSent: this.o.resolver.queriesSent,
      queriesPerSecond: queries / seconds,
      checksPerSecond: checks / seconds,
      roundSeconds: records === 0 ? 0 : (records * perCheck) / this.o.queriesPerSecond,
      lastTickAt: this.lastTickAt === null ? null : new Date(this.lastTickAt).toISOString(),
    };
  }
}
