/**
 * The DNS watch as the facade runs it: built from the settings (and the shell's `--dns-server` list, which
 * wins for that run), ticked once a second by its own scheduler, rebuilt when the settings change.
 */
import type { ApiClock } from '../../../shared/api/clock.ts';
import type { Mirror, WriteResult } from '../mirror/types.ts';
import { cronScheduler, type TickScheduler } from '../sync/scheduler.ts';
import type { ConfirmRules } from './confirmation.ts';
import { createDnsQuery, type DnsQuery } from './dnsQuery.ts';
import { DnsWatcher, type DnsWatchStats } from './dnsWatcher.ts';
import { WatchResolver } from './watchResolver.ts';
import {
  chooseServers,
  DNS_WATCH_SETTINGS_KEY,
  readDnsWatchSettings,
  type DnsWatchSettings,
} from './watchSettings.ts';

/** The mirror setting holding the running watch's pace (queries a second…), for other processes. */
export const DNS_WATCH_PACE_KEY = 'dnsWatchPace';

/**
 * The mirror setting holding why the watch's resolver cannot be trusted ({ reason, resolver, since }), or
 * null while it can: the screens say it (and any process may be the one watching).
 */
export const DNS_WATCH_TRUST_KEY = 'dnsWatchTrust';

/** What a shell passes to run the watch (absent: no watch, e.g. in tests of other parts). */
export interface DnsWatchOptions {
  /** Resolvers for this run (`HOST[:PORT]`), over the settings' list. */
  servers?: string[];
  /** Ticks (default: node-cron every second). */
  scheduler?: TickScheduler;
  /** The wire client (tests: a fake server). */
  query?: DnsQuery;
  /** Resolvers when neither the run nor the settings list any (default: the system's). */
  systemServers?: () => string[];
  /** When an answer becomes evidence (default: confirmation.ts's; tests shorten the spacing). */
  confirm?: ConfirmRules;
}

/** The watch's state for Settings and `status`. */
export interface DnsWatchView {
  settings: DnsWatchSettings;
  /** Where the servers come from. */
  source: 'command line' | 'settings' | 'system';
  running: boolean;
  stats: DnsWatchStats | null;
}

export class DnsWatchRuntime {
  private watcher: DnsWatcher | null = null;
  private handle: { stop(): Promise<void> } | null = null;
  private ticking: Promise<unknown> = Promise.resolve();
  private paceSavedAt = -Infinity;

  constructor(
    private readonly o: DnsWatchOptions & {
      mirror: Mirror;
      clock: ApiClock;
      afterWrite: (result: WriteResult, domains: { accountId: number; domainId: number }[]) => Promise<void>;
      /** The resolver's standing changed (the screens read it again). */
      onTrustChanged?: () => void;
      logger?: { error(message: string, fields?: Record<string, unknown>): void };
    },
  ) {}

  settings(): DnsWatchSettings {
    return readDnsWatchSettings(this.o.mirror.getSetting(DNS_WATCH_SETTINGS_KEY));
  }

  private build(): DnsWatcher | null {
    const settings = this.settings();
    if (!settings.enabled) return null;
    const listed = this.o.servers?.length ? this.o.servers : settings.servers;
    const servers = chooseServers(listed, this.o.systemServers);
    if (servers.length === 0) return null;
    const resolver = new WatchResolver({
      servers,
      query: this.o.query ?? createDnsQuery(),
      clock: this.o.clock,
      ratePerSecond: settings.ratePerSecond,
      maxCacheSeconds: settings.ceilingSeconds,
    });
    return new DnsWatcher({
      mirror: this.o.mirror,
      resolver,
      clock: this.o.clock,
      cadence: {
        floorSeconds: settings.floorSeconds,
        ceilingSeconds: settings.ceilingSeconds,
        concurrency: 64,
      },
      queriesPerSecond: settings.ratePerSecond * servers.length,
      afterWrite: this.o.afterWrite,
      ...(this.o.confirm ? { confirm: this.o.confirm } : {}),
    });
  }

  /** Starts ticking (idempotent). */
  start(): void {
    if (this.handle) return;
    this.watcher = this.build();
    const scheduler = this.o.scheduler ?? cronScheduler('* * * * * *');
    this.handle = scheduler.start(() => {
      const watcher = this.watcher;
      const run = (watcher?.tick() ?? Promise.resolve())
        .then(() => {
          if (watcher) this.saveTrust(watcher);
          if (watcher && this.o.clock.now() - this.paceSavedAt >= 30_000) this.savePace(watcher);
        })
        .catch((error: unknown) =>
          this.o.logger?.error('DNS watch tick failed', {
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      this.ticking = run;
      return run.then(() => undefined);
    });
  }

  /** Asks every record once now (for `sync --once`); null when the watch is off. */
  async round(): Promise<{ records: number; alerts: number } | null> {
    const watcher = this.watcher ?? this.build();
    if (!watcher) return null;
    const result = await watcher.round();
    this.saveTrust(watcher);
    this.savePace(watcher);
    return { records: watcher.stats().records, alerts: result.alerts.length };
  }

  /** Keeps the resolver's standing in the mirror when it changed (with since when it cannot be trusted). */
  private saveTrust(watcher: DnsWatcher): void {
    const verdict = watcher.trust();
    const kept = this.o.mirror.getSetting(DNS_WATCH_TRUST_KEY) as { reason?: unknown } | null | undefined;
    const keptReason = typeof kept?.reason === 'string' ? kept.reason : null;
    const reason = verdict.trusted ? null : verdict.reason;
    if (reason === keptReason) return;
    this.o.mirror.setSetting(
      DNS_WATCH_TRUST_KEY,
      verdict.trusted
        ? null
        : {
            reason: verdict.reason,
            resolver: verdict.resolver,
            since: new Date(this.o.clock.now()).toISOString(),
          },
    );
    this.o.onTrustChanged?.();
  }

  /** Keeps the pace in the mirror for other processes (`authwatch status` reads it). */
  private savePace(watcher: DnsWatcher): void {
    const stats = watcher.stats();
    this.o.mirror.setSetting(DNS_WATCH_PACE_KEY, {
      servers: stats.servers,
      source: this.source(),
      queriesPerSecond: stats.queriesPerSecond,
      checksPerSecond: stats.checksPerSecond,
      roundSeconds: stats.roundSeconds,
      at: new Date(this.o.clock.now()).toISOString(),
    });
    this.paceSavedAt = this.o.clock.now();
  }

  /** The settings changed: the next ticks use a watcher built from them (confirmed states are in the mirror). */
  restart(): void {
    if (this.handle) this.watcher = this.build();
    // A watch turned off says nothing of any resolver (a new one is judged by its own first answers).
    if (!this.watcher && this.o.mirror.getSetting(DNS_WATCH_TRUST_KEY)) {
      this.o.mirror.setSetting(DNS_WATCH_TRUST_KEY, null);
      this.o.onTrustChanged?.();
    }
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.stop();
    await this.ticking;
    this.watcher = null;
  }

  private source(): DnsWatchView['source'] {
    return this.o.servers?.length ? 'command line' : this.settings().servers.length ? 'settings' : 'system';
  }

  view(): DnsWatchView {
    const settings = this.settings();
    return {
      settings,
      source: this.source(),
      running: this.watcher !== null,
      stats: this.watcher?.stats() ?? null,
    };
  }
}
