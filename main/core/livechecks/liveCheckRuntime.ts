/**
 * The live checks as the facade runs them (beside the DNS watch, whose client they share): a runner built
 * from Settings → Live checks, the DNS watch's resolvers and the network's authorities, ticked every five
 * seconds by its own scheduler, rebuilt when the settings change.
 */
import type { ApiClock } from '../../../shared/api/clock.ts';
import type { Mirror, WriteResult } from '../mirror/types.ts';
import { cronScheduler, type TickScheduler } from '../sync/scheduler.ts';
import { createDnsQuery } from '../dnswatch/dnsQuery.ts';
import { DNS_WATCH_TRUST_KEY, type DnsWatchOptions } from '../dnswatch/dnsWatchRuntime.ts';
import { WatchResolver } from '../dnswatch/watchResolver.ts';
import { chooseServers, DNS_WATCH_SETTINGS_KEY, readDnsWatchSettings } from '../dnswatch/watchSettings.ts';
import { readCaFile } from '../network/extraCa.ts';
import type { ProxyChoice } from '../network/proxyRoute.ts';
import type { LiveCheckDefinition, LiveTarget } from './definition.ts';
import { LiveCheckRunner, type LiveCheckNotice, type LiveCheckStats } from './liveCheckRunner.ts';
import {
  LIVE_CHECK_NOTICES_KEY,
  LIVE_CHECK_SETTINGS_KEY,
  readLiveCheckSettings,
  type LiveCheckSettings,
} from './liveCheckSettings.ts';

/** What a shell passes to run the live checks (absent: none run, e.g. in tests of other parts). */
export interface LiveCheckOptions {
  /** Ticks (default: node-cron every five seconds). */
  scheduler?: TickScheduler;
  /** The checks (default: the registry's; tests pass one). */
  checks?: readonly LiveCheckDefinition[];
}

/** The live checks' state for Settings and `status`. */
export interface LiveCheckView {
  settings: LiveCheckSettings;
  running: boolean;
  stats: LiveCheckStats | null;
  notices: Record<string, LiveCheckNotice>;
  /** Why the extra CA file cannot be used, or null. */
  caProblem: string | null;
}

export class LiveCheckRuntime {
  private runner: LiveCheckRunner | null = null;
  private handle: { stop(): Promise<void> } | null = null;
  private caProblem: string | null = null;

  constructor(
    private readonly o: LiveCheckOptions & {
      checks: readonly LiveCheckDefinition[];
      mirror: Mirror;
      clock: ApiClock;
      /** The DNS watch's options (the same resolvers and wire client). */
      dns: DnsWatchOptions;
      /** The network layer's authorities (system plus its extra CA). */
      networkCa: () => readonly string[] | undefined;
      /** The network layer's proxy for an HTTPS target (absent: direct). */
      proxyFor?: (target: URL) => ProxyChoice | null;
      afterWrite: (result: WriteResult, target: LiveTarget) => Promise<void>;
      onNoticeChanged?: () => void;
      logger?: { error(message: string, fields?: Record<string, unknown>): void };
    },
  ) {}

  settings(): LiveCheckSettings {
    return readLiveCheckSettings(this.o.mirror.getSetting(LIVE_CHECK_SETTINGS_KEY));
  }

  private ca(settings: LiveCheckSettings): readonly string[] | undefined {
    this.caProblem = null;
    const base = this.o.networkCa();
    if (!settings.extraCaFile) return base;
    try {
      const extra = readCaFile(settings.extraCaFile, 'Settings → Live checks');
      return [...(base ?? []), ...extra];
    } catch (error) {
      this.caProblem = error instanceof Error ? error.message : String(error);
      return base;
    }
  }

  private build(): LiveCheckRunner | null {
    const settings = this.settings();
    if (!settings.enabled) return null;
    const dnsSettings = readDnsWatchSettings(this.o.mirror.getSetting(DNS_WATCH_SETTINGS_KEY));
    const listed = this.o.dns.servers?.length ? this.o.dns.servers : dnsSettings.servers;
    const servers = chooseServers(listed, this.o.dns.systemServers);
    const resolver =
      dnsSettings.enabled && servers.length > 0
        ? new WatchResolver({
            servers,
            query: this.o.dns.query ?? createDnsQuery(),
            clock: this.o.clock,
            ratePerSecond: dnsSettings.ratePerSecond,
            maxCacheSeconds: dnsSettings.ceilingSeconds,
          })
        : null;
    return new LiveCheckRunner({
      mirror: this.o.mirror,
      clock: this.o.clock,
      checks: this.o.checks,
      settings,
      resolver,
      dnsTrusted: () => !this.o.mirror.getSetting(DNS_WATCH_TRUST_KEY),
      ca: this.ca(settings),
      ...(this.o.proxyFor ? { proxyFor: this.o.proxyFor } : {}),
      afterWrite: this.o.afterWrite,
      ...(this.o.onNoticeChanged ? { onNoticeChanged: this.o.onNoticeChanged } : {}),
      ...(this.o.logger ? { logger: this.o.logger } : {}),
    });
  }

  /** Starts ticking (idempotent). */
  start(): void {
    if (this.handle) return;
    this.runner = this.build();
    const scheduler = this.o.scheduler ?? cronScheduler('*/5 * * * * *');
    this.handle = scheduler.start(() => {
      try {
        this.runner?.tick();
      } catch (error) {
        this.o.logger?.error('live check tick failed', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return Promise.resolve();
    });
  }

  /** Runs every enabled check on every target now and waits; null when the live checks are off. */
  async round(): Promise<{ probes: number } | null> {
    const runner = this.runner ?? this.build();
    if (!runner) return null;
    return { probes: await runner.round() };
  }

  /** The settings changed: the next ticks use a runner built from them (results are in the mirror). */
  restart(): void {
    if (this.handle) {
      this.runner?.halt();
      this.runner = this.build();
    }
    if (!this.settings().enabled && Object.keys(this.notices()).length > 0) {
      this.o.mirror.setSetting(LIVE_CHECK_NOTICES_KEY, {});
      this.o.onNoticeChanged?.();
    }
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.stop();
    this.runner?.halt();
    await this.runner?.idle();
    this.runner = null;
  }

  private notices(): Record<string, LiveCheckNotice> {
    const stored = this.o.mirror.getSetting(LIVE_CHECK_NOTICES_KEY);
    return stored && typeof stored === 'object' ? (stored as Record<string, LiveCheckNotice>) : {};
  }

  view(): LiveCheckView {
    if (!this.runner) this.ca(this.settings());
    return {
      settings: this.settings(),
      running: this.runner !== null,
      stats: this.runner?.stats() ?? null,
      notices: this.notices(),
      caProblem: this.caProblem,
    };
  }
}
