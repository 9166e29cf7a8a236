import type { BridgeMethods } from '../../shared/bridge/contract.ts';
import { accountMethods } from './app/methods/accounts.ts';
import { alertMethods } from './app/methods/alerts.ts';
import { channelMethods } from './app/methods/channels.ts';
import { digestMethods } from './app/methods/digests.ts';
import { metricsSwitch } from './delivery/metricsSwitch.ts';
import { dnsWatchMethods } from './app/methods/dnsWatch.ts';
import { networkMethods } from './app/methods/network.ts';
import { liveCheckMethods } from './app/methods/liveChecks.ts';
import { editMethods } from './app/methods/edits.ts';
import { exportMethods } from './app/methods/exports.ts';
import { panelMethods } from './app/methods/panels.ts';
import { readMethods } from './app/methods/reads.ts';
import { senderMethods } from './app/methods/senders.ts';
import { auditMethods } from './app/methods/audit.ts';
import { silenceMethods } from './app/methods/silences.ts';
import { routeMethods } from './app/methods/routes.ts';
import { maintenanceMethods } from './app/methods/maintenance.ts';
import { localReadMethods, type LocalReads } from './app/methods/localReads.ts';
import { acknowledgementMethods } from './app/methods/acknowledgements.ts';
import { settingsMethods } from './app/methods/settings.ts';
import { syncMethods } from './app/methods/sync.ts';
import { guard, parse } from './app/guard.ts';
import { createWiring, type AuthwatchEvent, type AuthwatchOptions } from './app/wiring.ts';
import { openExternalArgs } from '../../shared/bridge/args.ts';
import { cronScheduler } from './sync/scheduler.ts';
import type { ChannelService } from './delivery/channelService.ts';
import type { RoundResult } from './delivery/outboxSender.ts';
import {
  startMetricsServer,
  type MetricsServer,
  type MetricsServerOptions,
} from './delivery/metricsServer.ts';

export { AuthwatchError } from './app/authwatchError.ts';
export type { Notifier } from './app/notificationDelivery.ts';
export { summaryText } from './alerts/notificationWords.ts';
export { notificationText } from './app/alertText.ts';
export type { AuthwatchEvent, AuthwatchOptions } from './app/wiring.ts';

/**
 * The one object every shell (Electron, browser host, CLI) talks to: the bridge's methods
 * (shared/bridge/contract.ts), the mirror's own rows the CLI prints (LocalReads), plus the engine's
 * lifecycle and its events.
 */
export interface Authwatch extends BridgeMethods, LocalReads {
  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: (event: AuthwatchEvent) => void): () => void;
  /** Starts the scheduled sync. */
  start(): void;
  /** Stops the scheduled sync and waits for work in flight (the mirror stays open: its owner closes it). */
  stop(): Promise<void>;
  /** Resolves when background work started by openDomain/edits has finished. */
  whenIdle(): Promise<void>;
  /** Delivers alerts waiting for a notifier (a shell calls it when a window becomes able to show them). */
  deliverPending(): Promise<void>;
  /** Delivery channels (email, webhooks, Alertmanager): add, edit, test, remove. */
  readonly channels: ChannelService;
  /** Runs a sync pass with its deliveries held back, so they go out grouped (one message per channel). */
  holdDeliveries<T>(work: Promise<T>): Promise<T>;
  /** Sends what the outbox holds now, retrying for at most `timeoutMs`; resolves with what is left. */
  flushDeliveries(timeoutMs: number): Promise<RoundResult>;
  /** Serves /metrics (OpenMetrics) on host:port (default 127.0.0.1) until the handle is closed. */
  serveMetrics(options: Omit<MetricsServerOptions, 'registry' | 'textRegistry'>): Promise<MetricsServer>;
  /** Asks DNS for every record once now (`sync --once --dns-server`); null when this shell runs no watch. */
  checkDnsOnce(): Promise<{ records: number; alerts: number } | null>;
  /** Runs every enabled live check on every target now (`checks --now`); null when this shell runs none. */
  checkLiveOnce(): Promise<{ probes: number } | null>;
}

/** Creates the facade over a mirror and a secret store. Nothing runs until start() or a call. */
export function createAuthwatch(options: AuthwatchOptions): Authwatch {
  const w = createWiring(options);
  const metrics = metricsSwitch(w.mirror, w.metrics);
  const facade: Authwatch = {
    ...channelMethods(w, metrics),
    ...digestMethods(w),
    ...readMethods(w),
    ...senderMethods(w),
    ...alertMethods(w),
    ...settingsMethods(w),
    ...accountMethods(w),
    ...syncMethods(w),
    ...editMethods(w),
    ...panelMethods(w),
    ...exportMethods(w),
    ...dnsWatchMethods(w),
    ...networkMethods(w),
    ...liveCheckMethods(w),
    ...auditMethods(w),
    ...silenceMethods(w),
    ...acknowledgementMethods(w),
    ...routeMethods(w),
    ...maintenanceMethods(w),
    ...localReadMethods(w),
    openExternal: (a) =>
      guard(async () => {
        const { url } = parse(openExternalArgs, a);
        return { opened: (await options.shell?.openExternal?.(url)) ?? false };
      }),
    on: (listener) => w.subscribe(listener),
    start() {
      w.engine.start(options.scheduler ?? cronScheduler());
      w.delivery.outbox.start();
      w.delivery.digests.start();
      void metrics.start();
      w.dnsWatch?.start();
      w.liveChecks?.start();
    },
    async stop() {
      await w.engine.stop();
      await w.dnsWatch?.stop();
      await w.liveChecks?.stop();
      await w.whenIdle();
      await w.delivery.outbox.stop();
      await w.delivery.digests.stop();
      await metrics.stop();
    },
    channels: w.delivery.channels,
    holdDeliveries: (work) => w.delivery.outbox.hold(work),
    flushDeliveries: (timeoutMs) => w.delivery.outbox.flush(timeoutMs),
    serveMetrics: (o) =>
      startMetricsServer({ ...o, registry: w.metrics.registry, textRegistry: w.metrics.textRegistry }),
    whenIdle: () => w.whenIdle(),
    deliverPending: () => w.deliver(),
    checkDnsOnce: async () => (w.dnsWatch ? w.dnsWatch.round() : null),
    checkLiveOnce: async () => (w.liveChecks ? w.liveChecks.round() : null),
  };
  return facade;
}
