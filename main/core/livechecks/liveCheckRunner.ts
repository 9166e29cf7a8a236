/**
 * Runs the live checks (./definition.ts): each tick it finds, per enabled kind, the targets that are due — a
 * DNS record the kind follows changed (the DNS watch saw it), never checked, or older than the kind's period
 * (its retry period after an `unknown`) — and starts probes within the kind's caps, without waiting for them
 * (a daily round of MX connections takes an hour; a TXT change must still be checked within minutes). Every
 * socket takes a slot of one global per-minute cap. It spends no API request: targets come from the mirror.
 *
 * A network that stops a kind (every target `blocked`, e.g. outbound port 25) is said once, as a notice in
 * the mirror's settings (LIVE_CHECK_NOTICES_KEY), and cleared by the first probe that gets through.
 */
import type { ApiClock } from '../../../shared/api/clock.ts';
import { RoundShare } from './roundShare.ts';
import { nextLookAt } from './nextLook.ts';
import type { Mirror, WriteResult } from '../mirror/types.ts';
import type { LiveCheckRow } from '../mirror/liveCheckStore.ts';
import { QueryBucket } from '../dnswatch/rateCap.ts';
import type { WatchResolver } from '../dnswatch/watchResolver.ts';
import type { ProxyChoice } from '../network/proxyRoute.ts';
import type { LiveCheckDefinition, LiveTarget, ProbeContext, ProbeOutcome } from './definition.ts';
import {
  kindEnabled,
  kindSettings,
  LIVE_CHECK_NOTICES_KEY,
  type LiveCheckSettings,
} from './liveCheckSettings.ts';

/** A setting-level notice: why a kind cannot run from this network, since when. */
export interface LiveCheckNotice {
  words: string;
  since: string;
}

/** Blocked targets in a row (with no probe getting through) before the notice is said. */
const BLOCKED_BEFORE_NOTICE = 3;

export interface LiveCheckRunnerOptions {
  mirror: Mirror;
  clock: ApiClock;
  checks: readonly LiveCheckDefinition[];
  settings: LiveCheckSettings;
  /** The DNS watch's client (null: no resolver, so checks that use DNS wait). */
  resolver: WatchResolver | null;
  /** False while the DNS watch's resolver cannot be trusted: checks that use DNS then wait (no evidence). */
  dnsTrusted: () => boolean;
  /** What TLS trusts (the network's authorities plus the live checks' extra CA). */
  ca: readonly string[] | undefined;
  /** The network's proxy for an HTTPS target (absent: always direct). */
  proxyFor?: (target: URL) => ProxyChoice | null;
  afterWrite: (result: WriteResult, target: LiveTarget) => Promise<void>;
  /** A notice was said or cleared (the screens read it again). */
  onNoticeChanged?: () => void;
  logger?: { error(message: string, fields?: Record<string, unknown>): void };
}

/** What Settings and `status` show of the runner. */
export interface LiveCheckStats {
  inFlight: number;
  probes: number;
  connectionsLastMinute: number;
  /** Connections opened since the runner started (the bench reads them against the cap). */
  connections: number;
}

const keyOf = (check: string, t: LiveTarget) => `${check} ${t.accountId} ${t.domainId ?? ''}`;

export class LiveCheckRunner {
  private readonly cap: QueryBucket;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perKind = new Map<string, number>();
  /** Per kind, the due targets of the last tick not yet started (refilled into slots as probes end). */
  private readonly queues = new Map<string, LiveTarget[]>();
  private halted = false;
  private readonly blocked = new Map<string, number>();
  private readonly connections: number[] = [];
  private probes = 0;
  private opened = 0;
  private readonly share = new RoundShare();
  /** round() calls running: a kind's round then ends when round() does, not when its slots empty. */
  private rounds = 0;

  constructor(private readonly o: LiveCheckRunnerOptions) {
    this.cap = new QueryBucket(o.settings.connectionsPerMinute, o.clock, 60_000);
  }

  /**
   * Starts the probes that are due now (does not wait for them): at most the kind's `perTick` at once, and
   * then, as each probe ends, the next due target in its slot until the tick's list is done — a kind whose
   * probes take a second must not wait for the next tick to refill its slots (5,000 domains at 32 probes a
   * five-second tick was a 13-minute blocklist round, most of it idle).
   */
  tick(): void {
    if (this.halted) return;
    for (const check of this.o.checks) {
      if (!this.runnable(check)) {
        this.queues.delete(check.name);
        continue;
      }
      this.queues.set(check.name, this.due(check));
      this.fill(check, check.caps.perTick);
    }
  }

  /** Checks every target of every enabled kind now, and waits (the CLI's `checks --now`, tests). */
  async round(): Promise<number> {
    // The round takes every target itself: what the ticks had queued would only check them twice.
    this.queues.clear();
    for (const check of this.o.checks) this.share.end(check.name);
    this.rounds++;
    try {
      return await this.roundOfEach();
    } finally {
      if (--this.rounds === 0) for (const check of this.o.checks) this.share.end(check.name);
    }
  }

  private async roundOfEach(): Promise<number> {
    let started = 0;
    for (const check of this.o.checks) {
      if (!this.runnable(check)) continue;
      const targets = this.targets(check).filter((t) => !this.inFlight.has(keyOf(check.name, t)));
      started += targets.length;
      // A pool of `concurrency` probes: a slot is taken again as soon as its probe ends.
      let next = 0;
      const worker = async () => {
        while (next < targets.length) await this.launch(check, targets[next++]!);
      };
      await Promise.all(Array.from({ length: Math.min(check.caps.concurrency, targets.length) }, worker));
    }
    await this.idle();
    return started;
  }

  /** Starts queued targets of `check` while it has free slots, `limit` at most. */
  private fill(check: LiveCheckDefinition, limit = Infinity): void {
    const queue = this.queues.get(check.name);
    let started = 0;
    while (queue?.length && started < limit && (this.perKind.get(check.name) ?? 0) < check.caps.concurrency) {
      const target = queue.shift()!;
      if (this.inFlight.has(keyOf(check.name, target))) continue;
      void this.launch(check, target);
      started++;
    }
  }

  /** Starts nothing more (what is in flight ends on its own): the runner is being replaced or stopped. */
  halt(): void {
    this.queues.clear();
    this.halted = true;
  }

  /** Resolves when no probe is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }

  stats(): LiveCheckStats {
    const now = this.o.clock.now();
    return {
      inFlight: this.inFlight.size,
      probes: this.probes,
      connectionsLastMinute: this.connections.filter((t) => t > now - 60_000).length,
      connections: this.opened,
    };
  }

  private runnable(check: LiveCheckDefinition): boolean {
    if (!kindEnabled(this.o.settings, check)) return false;
    return !check.uses.includes('dns') || (this.o.resolver !== null && this.o.dnsTrusted());
  }

  private targets(check: LiveCheckDefinition): LiveTarget[] {
    const out: LiveTarget[] = [];
    const accounts = this.o.mirror.listAccounts();
    // A global check has one target; every alert belongs to an account, so it is filed under the first.
    if (check.per === 'global')
      return accounts.slice(0, 1).map((a) => ({ accountId: a.id, domainId: null, fqdn: null }));
    for (const account of accounts) {
      if (check.per === 'account') out.push({ accountId: account.id, domainId: null, fqdn: null });
      else
        for (const d of this.o.mirror.listDomains(account.id))
          out.push({ accountId: account.id, domainId: d.domainId, fqdn: d.fqdn.toLowerCase() });
    }
    return out;
  }

  /** The DNS watch's values of the records a kind follows, as one string (null: nothing definite yet). */
  private dnsSeen(check: LiveCheckDefinition, t: LiveTarget): string | null {
    const follows = check.cadence.afterDnsChange;
    if (!follows?.length || t.domainId === null) return null;
    const records = this.o.mirror
      .dnsWatchRecords(t.accountId, t.domainId)
      .filter((r) => follows.includes(r.protocol) && (r.answer === 'present' || r.answer === 'absent'));
    if (records.length === 0) return null;
    return records
      .map((r) => `${r.protocol}=${r.answer === 'present' ? (r.value ?? '') : '-'}`)
      .sort()
      .join('\n');
  }

  /** Due targets, most urgent first: a followed record changed, never checked, then the longest overdue. */
  private due(check: LiveCheckDefinition): LiveTarget[] {
    const now = this.o.clock.now();
    const rows = new Map<string, LiveCheckRow>();
    for (const r of this.o.mirror.allLiveChecks())
      if (r.check === check.name) rows.set(keyOf(r.check, { ...r, fqdn: r.fqdn }), r);
    const ranked: { t: LiveTarget; rank: number }[] = [];
    for (const t of this.targets(check)) {
      const key = keyOf(check.name, t);
      if (this.inFlight.has(key)) continue;
      const row = rows.get(key);
      if (!row) {
        ranked.push({ t, rank: -1e15 });
        continue;
      }
      const seen = this.dnsSeen(check, t);
      if (seen !== null && row.dnsSeen !== null && seen !== row.dnsSeen) {
        ranked.push({ t, rank: -2e15 });
        continue;
      }
      const dueAt = nextLookAt(check, row);
      if (dueAt <= now) ranked.push({ t, rank: dueAt });
    }
    return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.t);
  }

  private launch(check: LiveCheckDefinition, target: LiveTarget): Promise<void> {
    const key = keyOf(check.name, target);
    this.perKind.set(check.name, (this.perKind.get(check.name) ?? 0) + 1);
    const run = this.probe(check, target)
      .catch((error: unknown) =>
        this.o.logger?.error('live check failed', {
          check: check.name,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => {
        this.inFlight.delete(key);
        this.perKind.set(check.name, (this.perKind.get(check.name) ?? 1) - 1);
        this.fill(check);
        const idle = this.perKind.get(check.name) === 0 && !this.queues.get(check.name)?.length;
        if (idle && this.rounds === 0) this.share.end(check.name);
      });
    this.inFlight.set(key, run);
    return run;
  }

  private context(
    check: LiveCheckDefinition,
    target: LiveTarget,
    signal: AbortSignal,
  ): ProbeContext<unknown> {
    const resolver = this.o.resolver;
    const lookup: ProbeContext<unknown>['lookup'] = (name, type) =>
      resolver
        ? resolver.lookup(name, type)
        : Promise.resolve({ kind: 'unknown', reason: 'no DNS resolver', server: '' });
    return {
      target,
      settings: kindSettings(this.o.settings, check),
      ports: { smtp: this.o.settings.smtpPort, https: this.o.settings.httpsPort },
      lookup,
      shared: (key, make) => this.share.get(check.name, key, make),
      async addresses(name) {
        const values: string[] = [];
        for (const type of ['A', 'AAAA'] as const) {
          const found = await lookup(name, type);
          if (found.kind === 'unknown') return { kind: 'unknown', reason: found.reason };
          if (found.kind === 'records') values.push(...found.values.map((v) => v[0] ?? '').filter(Boolean));
        }
        return values.length > 0 ? { kind: 'addresses', values } : { kind: 'absent' };
      },
      connection: async () => {
        await this.cap.take();
        const now = this.o.clock.now();
        this.connections.push(now);
        this.opened++;
        while (this.connections.length > 0 && this.connections[0]! <= now - 60_000) this.connections.shift();
      },
      ca: this.o.ca,
      proxyFor: this.o.proxyFor ?? (() => null),
      timeoutMs: this.o.settings.timeoutMs,
      previous: null,
      mirror: this.o.mirror,
      now: () => this.o.clock.now(),
      signal,
    };
  }

  private async probe(check: LiveCheckDefinition, target: LiveTarget): Promise<void> {
    const row = this.o.mirror.liveCheck(check.name, target.accountId, target.domainId);
    const ctx = this.context(check, target, AbortSignal.timeout(this.o.settings.timeoutMs * 6));
    ctx.previous = row?.result && row.resultAt ? { result: row.result, checkedAt: row.resultAt } : null;
    const dnsSeen = this.dnsSeen(check, target);
    let outcome: ProbeOutcome<unknown>;
    try {
      outcome = await check.probe(ctx);
    } catch (error) {
      outcome = {
        status: 'unknown',
        words: `the check could not run: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    this.probes++;
    if (outcome.status === 'checked') {
      const parsed = check.result.safeParse(outcome.result);
      if (!parsed.success) outcome = { status: 'unknown', words: 'the check saw something it cannot store' };
    }
    this.noteBlocked(check, outcome);
    const write =
      outcome.status === 'checked'
        ? (() => {
            const problems = check.shown.problems(outcome.result);
            return {
              status: problems.length > 0 ? ('problem' as const) : ('ok' as const),
              words: problems.length > 0 ? problems.join('; ') : check.shown.text(outcome.result),
              result: outcome.result,
            };
          })()
        : outcome.status === 'not_applicable'
          ? { status: 'not_applicable' as const, words: outcome.words, result: null }
          : { status: 'unknown' as const, words: outcome.words };
    const result = this.o.mirror.writeLiveCheck(
      { check: check.name, accountId: target.accountId, domainId: target.domainId, dnsSeen, ...write },
      this.o.clock.now(),
    );
    await this.o.afterWrite(result, target);
  }

  /** Counts blocked targets in a row; says the notice at the threshold, clears it when a probe gets through. */
  private noteBlocked(check: LiveCheckDefinition, outcome: ProbeOutcome<unknown>): void {
    const notices = { ...this.notices() };
    if (outcome.status === 'unknown' && outcome.blocked) {
      const count = (this.blocked.get(check.name) ?? 0) + 1;
      this.blocked.set(check.name, count);
      const enough = Math.min(BLOCKED_BEFORE_NOTICE, this.targets(check).length);
      if (count >= enough && !notices[check.name]) {
        notices[check.name] = {
          words: `${check.words}: ${outcome.words}`,
          since: new Date(this.o.clock.now()).toISOString(),
        };
        this.o.mirror.setSetting(LIVE_CHECK_NOTICES_KEY, notices);
        this.o.onNoticeChanged?.();
      }
      return;
    }
    if (outcome.status === 'unknown') return;
    this.blocked.delete(check.name);
    if (notices[check.name]) {
      delete notices[check.name];
      this.o.mirror.setSetting(LIVE_CHECK_NOTICES_KEY, notices);
      this.o.onNoticeChanged?.();
    }
  }

  private notices(): Record<string, LiveCheckNotice> {
    const stored = this.o.mirror.getSetting(LIVE_CHECK_NOTICES_KEY);
    return stored && typeof stored === 'object' ? (stored as Record<string, LiveCheckNotice>) : {};
  }
}
