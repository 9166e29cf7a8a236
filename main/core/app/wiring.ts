import { createApiClient } from '../../../shared/api/client.ts';
import { systemClock, type ApiClock } from '../../../shared/api/clock.ts';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { RateBudget } from '../../../shared/api/rateBudget.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { syncSettingsSchema } from '../../../shared/bridge/args.ts';
import type { Connectivity, SyncSettings } from '../../../shared/bridge/results.ts';
import { AccountManager } from './accountManager.ts';
import type { SecretStore } from '../accounts/secretStore.ts';
import {
  createDeliveryRuntime,
  type DeliveryOptions,
  type DeliveryRuntime,
} from '../delivery/deliveryRuntime.ts';
import { createMetrics, type AuthwatchMetrics } from '../delivery/metrics.ts';
import type { Alert, Mirror } from '../mirror/types.ts';
import type { SyncLogger } from '../sync/accountSyncer.ts';
import { budgetShape } from '../sync/budgetShape.ts';
import type { SyncEvent } from '../sync/events.ts';
import type { LooseApi } from '../sync/looseApi.ts';
import type { TickScheduler } from '../sync/scheduler.ts';
import { SyncEngine } from '../sync/syncEngine.ts';
import { DnsWatchRuntime, type DnsWatchOptions } from '../dnswatch/dnsWatchRuntime.ts';
import type { NetworkLayer } from '../network/networkLayer.ts';
import { LiveCheckRuntime, type LiveCheckOptions } from '../livechecks/liveCheckRuntime.ts';
import { LIVE_CHECKS } from '../livechecks/registry.ts';
import { ALERT_CATALOGUE } from '../livechecks/ruleRegistry.ts';
import { ConnectivityTracker } from './connectivity.ts';
import { createDelivery, type AlertSummary, type Notifier } from './notificationDelivery.ts';
import { notificationsHeld } from './preferences.ts';

/** What a shell can do that the engine cannot (Electron: login items, the user's browser). */
export interface ShellHooks {
  setStartAtLogin?(enabled: boolean): void | Promise<void>;
  /** Opens an https URL in the user's browser; false when this shell cannot. */
  openExternal?(url: string): Promise<boolean>;
}

/** What shells pass in; everything but the mirror and the secret store has a default. */
export interface AuthwatchOptions {
  mirror: Mirror;
  secretStore: SecretStore;
  /** The API's fetch (default: the network layer's, else the platform's; tests: a double). */
  fetch?: FetchLike;
  /** The process's one network layer (openRuntime builds it): Settings → Network reads and changes it. */
  network?: NetworkLayer;
  /** Time, sleep and randomness for the sync, the rate budgets and the API client (tests: a fake clock). */
  clock?: Partial<ApiClock>;
  /** Drives sync ticks once start() is called (default: node-cron every 10 s). */
  scheduler?: TickScheduler;
  notifier?: Notifier;
  logger?: SyncLogger;
  /** Deadline per HTTP attempt (default 15 s). */
  timeoutMs?: number;
  shell?: ShellHooks;
  /** Channels beyond the window (email, webhooks, Alertmanager) and their outbox sender. */
  delivery?: DeliveryOptions;
  /**
   * Runs the DNS watch (main/core/dnswatch) beside the sync: the shells pass it (with `--dns-server`'s list
   * when given); absent, no DNS query is ever sent (tests of other parts stay off the network).
   */
  dnsWatch?: DnsWatchOptions;
  /**
   * Runs the live checks (main/core/livechecks) with the DNS watch's client: the shells that watch DNS pass
   * it; absent (or without `dnsWatch`), no live check ever connects anywhere.
   */
  liveChecks?: LiveCheckOptions;
  /** Who lifecycle changes (silences, acknowledgements) are recorded as; default the OS user. */
  actor?: () => string;
}

/** Everything the facade reports to shells. Plain JSON. */
export type AuthwatchEvent =
  | SyncEvent
  | { type: 'alert_delivered'; alert: Alert }
  /** Many pending alerts were shown as one notification (a long absence) and are marked delivered. */
  | { type: 'alerts_summarized'; summary: AlertSummary }
  | { type: 'accounts_changed' }
  | { type: 'alerts_changed'; accountId: number | null }
  | { type: 'settings_changed' }
  | { type: 'panel_changed'; accountId: number; domainId: number | null }
  | { type: 'dns_watch_changed'; accountId: number; domainId: number }
  /** A live check stored a result for the domain (its Checks tab reads again). */
  | { type: 'live_check_changed'; accountId: number; domainId: number }
  | { type: 'connectivity'; state: Connectivity }
  /** A channel delivered (error null) or failed to (error in words); it keeps the delivery queued. */
  | { type: 'channel_state'; channel: string; error: string | null };

const SYNC_SETTINGS_KEY = 'sync';
const DEFAULT_SYNC_SETTINGS: SyncSettings = { ratePerMinute: 60, headroom: 6 };

/** The engine's parts, wired once per facade: mirror, accounts, budgets, API clients, sync, delivery. */
export interface Wiring {
  options: AuthwatchOptions;
  mirror: Mirror;
  clock: ApiClock;
  accounts: AccountManager;
  engine: SyncEngine;
  /** The DNS watch, or null when the shell did not ask for one. */
  dnsWatch: DnsWatchRuntime | null;
  /** The live checks, or null when the shell did not ask for them. */
  liveChecks: LiveCheckRuntime | null;
  connectivity: ConnectivityTracker;
  /** Channels and the outbox sender. */
  delivery: DeliveryRuntime;
  /** What /metrics serves. */
  metrics: AuthwatchMetrics;
  emit(event: AuthwatchEvent): void;
  subscribe(listener: (event: AuthwatchEvent) => void): () => void;
  /** Delivers pending alerts as notifications (serialized rounds). */
  deliver(): Promise<void>;
  syncSettings(): SyncSettings;
  saveSyncSettings(settings: SyncSettings): void;
  /** Forget an account's budget and syncer (its settings, token or URL changed). */
  resetAccount(accountId: number): void;
  /**
   * Per account edited since the app started: the panels read live since its last successful edit (by
   * request key). A panel kept from before the edit may show the state it changed, so an 'auto' read of
   * it asks the service again rather than answer from the mirror.
   */
  readSinceEdit: Map<number, Set<string>>;
  /** Keep background work (a domain's refresh on open) so stop() and whenIdle() can wait for it. */
  track(promise: Promise<unknown>): void;
  whenIdle(): Promise<void>;
}

/** Wires the engine for a facade. Nothing runs until the scheduler starts or a method is called. */
export function createWiring(options: AuthwatchOptions): Wiring {
  const { mirror, logger } = options;
  const apiFetch = options.fetch ?? options.network?.fetch;
  const clock: ApiClock = { ...systemClock, ...options.clock };
  const listeners = new Set<(event: AuthwatchEvent) => void>();
  const inflight = new Set<Promise<unknown>>();
  const emit = (event: AuthwatchEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A listener must not break the engine.
      }
    }
  };

  const syncSettings = (): SyncSettings => {
    const parsed = syncSettingsSchema.safeParse({
      ...DEFAULT_SYNC_SETTINGS,
      ...(mirror.getSetting(SYNC_SETTINGS_KEY) as object | undefined),
    });
    return parsed.success ? parsed.data : DEFAULT_SYNC_SETTINGS;
  };
  let budgets = new Map<number, RateBudget>();
  const budgetFor = (accountId: number): RateBudget => {
    let budget = budgets.get(accountId);
    if (!budget) {
      const { ratePerMinute, headroom } = syncSettings();
      budget = new RateBudget({ ...budgetShape(ratePerMinute, headroom), clock });
      budgets.set(accountId, budget);
    }
    return budget;
  };

  const makeApi = (o: {
    baseUrl: string;
    token: string | (() => Promise<string>);
    budget?: RateBudget;
    onEvent?: (event: ApiEvent) => void;
  }): LooseApi =>
    createApiClient({
      baseUrl: o.baseUrl,
      token: o.token,
      ...(apiFetch ? { fetch: apiFetch } : {}),
      clock,
      timeoutMs: options.timeoutMs ?? 15_000,
      // The sync retries on its own schedule: the client only rides out short blips and short Retry-Afters.
      retry: { maxAttempts: 3, maxRetryAfterMs: 5_000 },
      budgetMaxWaitMs: 30_000,
      ...(o.budget ? { budget: o.budget } : {}),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
    }) as unknown as LooseApi;

  const accounts = new AccountManager(mirror, options.secretStore, ({ baseUrl, token }) =>
    makeApi({ baseUrl, token: token as string | (() => Promise<string>) }),
  );

  const connectivity = new ConnectivityTracker(
    () => clock.now(),
    (state) => emit({ type: 'connectivity', state }),
    (accountId) => {
      let newest: string | null = null;
      for (const s of mirror.getSyncStates(accountId))
        if (s.lastSuccessAt && (!newest || s.lastSuccessAt > newest)) newest = s.lastSuccessAt;
      return newest;
    },
  );

  const deliver = createDelivery(
    mirror,
    options.notifier,
    () => clock.now(),
    {
      onDelivered: (alert) => emit({ type: 'alert_delivered', alert }),
      onSummarized: (summary) => emit({ type: 'alerts_summarized', summary }),
      onFailure: (alertIds, error) =>
        logger?.warn('notification failed; will retry', {
          alertIds: alertIds.length > 5 ? `${alertIds.length} alerts` : alertIds.join(', '),
          error: error instanceof Error ? error.message : String(error),
        }),
    },
    () => notificationsHeld(mirror, clock.now()),
  );

  const delivery = createDeliveryRuntime(mirror, options.secretStore, () => clock.now(), ALERT_CATALOGUE, {
    ...options.delivery,
    sender: {
      onDelivered: (channel) => emit({ type: 'channel_state', channel: channel.name, error: null }),
      onFailed: (channel, error) => emit({ type: 'channel_state', channel: channel.name, error }),
      ...options.delivery?.sender,
    },
    digest: {
      onSent: (channel) => emit({ type: 'channel_state', channel: channel.name, error: null }),
      onFailed: (channel, error) => emit({ type: 'channel_state', channel: channel.name, error }),
      ...options.delivery?.digest,
    },
  });

  const metrics = createMetrics({
    mirror,
    budgets: () => new Map([...budgets].map(([id, budget]) => [id, budget.snapshot()])),
    now: () => clock.now(),
    liveChecks: LIVE_CHECKS,
  });

  const engine = new SyncEngine({
    mirror,
    apiFor: (account, onRequest) =>
      makeApi({
        baseUrl: account.baseUrl,
        token: accounts.tokenProvider(account),
        budget: budgetFor(account.id),
        onEvent: (event) => {
          if (event.type === 'attempt') onRequest();
          connectivity.observe(account.id, event);
          metrics.observeApi(account.id, event);
        },
      }),
    budgetFor,
    // The sustained rate of the bucket: what the planner can count on per minute.
    ratePerMinute: () => {
      const { ratePerMinute, headroom } = syncSettings();
      return budgetShape(ratePerMinute, headroom).refillPerMinute;
    },
    clock,
    emit,
    // The outbox is only kicked, never awaited: a failing channel never slows the sync.
    afterWrite: () => {
      delivery.outbox.kick();
      return deliver();
    },
    ...(logger ? { logger } : {}),
  });

  const dnsWatch = options.dnsWatch
    ? new DnsWatchRuntime({
        ...options.dnsWatch,
        mirror,
        clock,
        onTrustChanged: () => emit({ type: 'settings_changed' }),
        afterWrite: async (result, domains) => {
          for (const d of domains)
            emit({ type: 'dns_watch_changed', accountId: d.accountId, domainId: d.domainId });
          if (result.alerts.length > 0 || result.resolved.length > 0) {
            for (const accountId of new Set(domains.map((d) => d.accountId)))
              emit({ type: 'alerts_changed', accountId });
          }
          // Channels hear of what the watch found at once, as of what a sync wrote (never awaited).
          if (result.alerts.length > 0 || result.resolved.length > 0) delivery.outbox.kick();
          await deliver();
        },
        ...(logger ? { logger } : {}),
      })
    : null;

  const liveChecks =
    options.liveChecks && options.dnsWatch
      ? new LiveCheckRuntime({
          checks: Object.values(LIVE_CHECKS),
          ...options.liveChecks,
          mirror,
          clock,
          dns: options.dnsWatch,
          networkCa: () => options.network?.smtpTls.ca,
          ...(options.network ? { proxyFor: options.network.proxyFor } : {}),
          onNoticeChanged: () => emit({ type: 'settings_changed' }),
          afterWrite: async (result, target) => {
            if (target.domainId !== null)
              emit({ type: 'live_check_changed', accountId: target.accountId, domainId: target.domainId });
            if (result.alerts.length > 0 || result.resolved.length > 0) {
              emit({ type: 'alerts_changed', accountId: target.accountId });
              delivery.outbox.kick();
            }
            await deliver();
          },
          ...(logger ? { logger } : {}),
        })
      : null;

  return {
    options,
    mirror,
    clock,
    accounts,
    engine,
    dnsWatch,
    liveChecks,
    connectivity,
    delivery,
    metrics,
    emit,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    deliver,
    syncSettings,
    saveSyncSettings(settings) {
      mirror.setSetting(SYNC_SETTINGS_KEY, settings);
      // New limits take effect with fresh budgets and syncers.
      budgets = new Map();
      engine.dropAll();
    },
    readSinceEdit: new Map(),
    resetAccount(accountId) {
      engine.drop(accountId);
      budgets.delete(accountId);
      connectivity.forget(accountId);
    },
    track(promise) {
      const settled = promise.catch((error: unknown) =>
        logger?.error('background refresh failed', {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      inflight.add(settled);
      void settled.finally(() => inflight.delete(settled));
    },
    async whenIdle() {
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
  };
}
