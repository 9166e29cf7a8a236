import type { z } from 'zod';
import { createApiClient } from '../../shared/api/client.ts';
import { systemClock, type ApiClock } from '../../shared/api/clock.ts';
import type { ApiEvent } from '../../shared/api/events.ts';
import { RateBudget } from '../../shared/api/rateBudget.ts';
import type { FetchLike } from '../../shared/api/timeoutFetch.ts';
import { AccountManager, type AccountView, type TokenCheck } from './accounts/accountManager.ts';
import type { AccountIdentity } from './accounts/identity.ts';
import type { SecretStore } from './accounts/secretStore.ts';
import { AuthwatchError, toAuthwatchError } from './app/authwatchError.ts';
import { EDIT_OPERATIONS, pathParameters, type EditOperationName } from './app/editOperations.ts';
import { createDelivery, type Notifier } from './app/notificationDelivery.ts';
import * as schemas from './app/schemas.ts';
import type { SyncSettings } from './app/schemas.ts';
import type { AlertSettings } from './alerts/types.ts';
import type {
  Account,
  Alert,
  DomainDetail,
  HistoryKind,
  HistoryRows,
  Mirror,
  OverviewRow,
} from './mirror/types.ts';
import type { SignalName } from './signals/catalog.ts';
import type { AccountSyncStatus, PassResult, SyncLogger } from './sync/accountSyncer.ts';
import type { SyncEvent } from './sync/events.ts';
import type { LooseApi } from './sync/looseApi.ts';
import { budgetShape } from './sync/budgetShape.ts';
import { cronScheduler, type TickScheduler } from './sync/scheduler.ts';
import { SyncEngine } from './sync/syncEngine.ts';
import { CORE_SIGNALS, HISTORY_SIGNALS, ON_DEMAND_SIGNALS } from './sync/syncJobs.ts';

export { AuthwatchError } from './app/authwatchError.ts';
export type { Notifier } from './app/notificationDelivery.ts';

/** What shells pass in; everything but the mirror and the secret store has a default. */
export interface AuthwatchOptions {
  mirror: Mirror;
  secretStore: SecretStore;
  fetch?: FetchLike;
  /** Time, sleep and randomness for the sync, the rate budgets and the API client (tests: a fake clock). */
  clock?: Partial<ApiClock>;
  /** Drives sync ticks once start() is called (default: node-cron every 10 s). */
  scheduler?: TickScheduler;
  notifier?: Notifier;
  logger?: SyncLogger;
  /** Deadline per HTTP attempt (default 15 s). */
  timeoutMs?: number;
}

/** Everything the facade reports to shells: sync events and delivered alerts. Plain JSON. */
export type AuthwatchEvent =
  SyncEvent | { type: 'alert_delivered'; alert: Alert } | { type: 'accounts_changed' };

/** The engine's status for displays: per account freshness, stretch and errors. */
export interface SyncStatus {
  running: boolean;
  accounts: (AccountSyncStatus & { label: string; baseUrl: string })[];
}

/** Result of an edit: the service's answer and the signals re-polled afterwards. */
export interface EditResult {
  operation: EditOperationName;
  status: number;
  requestId: string;
  data: unknown;
  repolled: SignalName[];
}

/** One entry of editOperations(): what a shell needs to build a menu. */
export interface EditOperationInfo {
  name: EditOperationName;
  method: string;
  path: string;
  summary: string;
  takesBody: boolean;
  affects: SignalName[];
}

/** All settings a shell can show. */
export interface Settings {
  alerts: AlertSettings;
  sync: SyncSettings;
}

type Args<S extends z.ZodType> = z.input<S>;

/** The one object every shell (Electron, browser host, CLI) talks to. Its methods are the bridge contract. */
export interface Authwatch {
  overview(args?: Args<typeof schemas.accountScope>): Promise<OverviewRow[]>;
  domainDetail(args: Args<typeof schemas.domainRef>): Promise<DomainDetail | null>;
  history<K extends HistoryKind>(
    args: Args<typeof schemas.historyArgs> & { kind: K },
  ): Promise<HistoryRows[K][]>;
  listAlerts(args?: Args<typeof schemas.listAlertsArgs>): Promise<Alert[]>;
  acknowledgeAlerts(args: Args<typeof schemas.acknowledgeArgs>): Promise<{ acknowledged: number }>;
  snoozeAlert(args: Args<typeof schemas.snoozeArgs>): Promise<Alert>;
  muteDomain(args: Args<typeof schemas.muteArgs>): Promise<{ muted: true }>;
  unmuteDomain(args: Args<typeof schemas.domainRef>): Promise<{ muted: false }>;
  getSettings(): Promise<Settings>;
  updateSettings(args: Args<typeof schemas.updateSettingsArgs>): Promise<Settings>;
  listAccounts(): Promise<AccountView[]>;
  addAccount(
    args: Args<typeof schemas.addAccountArgs>,
  ): Promise<{ account: AccountView; identity: AccountIdentity }>;
  testAccount(args: Args<typeof schemas.accountRef>): Promise<TokenCheck>;
  updateAccount(args: Args<typeof schemas.updateAccountArgs>): Promise<AccountView>;
  removeAccount(args: Args<typeof schemas.accountRef>): Promise<{ removed: boolean; secretDeleted: boolean }>;
  syncNow(args?: Args<typeof schemas.accountScope>): Promise<PassResult[]>;
  syncStatus(): Promise<SyncStatus>;
  openDomain(args: Args<typeof schemas.domainRef>): Promise<DomainDetail>;
  editOperations(): Promise<EditOperationInfo[]>;
  edit(args: Args<typeof schemas.editArgs>): Promise<EditResult>;
  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: (event: AuthwatchEvent) => void): () => void;
  /** Starts the scheduled sync. */
  start(): void;
  /** Stops the scheduled sync and waits for work in flight (the mirror stays open: its owner closes it). */
  stop(): Promise<void>;
  /** Resolves when background work started by openDomain/edits has finished. */
  whenIdle(): Promise<void>;
}

const SYNC_SETTINGS_KEY = 'sync';
const DEFAULT_SYNC_SETTINGS: SyncSettings = { ratePerMinute: 60, headroom: 6 };
/** Opening a domain refetches its panels older than this. */
const OPEN_REFRESH_MS = 15 * 60_000;

/** Validates facade arguments; a failure names each bad field without echoing values. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(arguments)',
    message: issue.message,
  }));
  const first = issues[0];
  throw new AuthwatchError(
    'invalid_arguments',
    first ? `${first.path}: ${first.message}` : 'invalid arguments',
    issues,
  );
}

/** Creates the facade over a mirror and a secret store. Nothing runs until start() or a call. */
export function createAuthwatch(options: AuthwatchOptions): Authwatch {
  const { mirror, logger } = options;
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
    const parsed = schemas.syncSettingsSchema.safeParse({
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
      ...(options.fetch ? { fetch: options.fetch } : {}),
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

  const deliver = createDelivery(
    mirror,
    options.notifier,
    () => clock.now(),
    (alert) => emit({ type: 'alert_delivered', alert }),
    (alert, error) =>
      logger?.warn('notification failed; will retry', {
        alertId: alert.id,
        error: error instanceof Error ? error.message : String(error),
      }),
  );

  const engine = new SyncEngine({
    mirror,
    apiFor: (account, onRequest) =>
      makeApi({
        baseUrl: account.baseUrl,
        token: accounts.tokenProvider(account),
        budget: budgetFor(account.id),
        onEvent: (event) => {
          if (event.type === 'attempt') onRequest();
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
    afterWrite: deliver,
    ...(logger ? { logger } : {}),
  });

  /** Runs a facade method body, turning every failure into an AuthwatchError. */
  async function guard<T>(run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toAuthwatchError(error);
    }
  }

  function track<T>(promise: Promise<T>): void {
    const settled = promise.catch((error: unknown) =>
      logger?.error('background refresh failed', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    inflight.add(settled);
    void settled.finally(() => inflight.delete(settled));
  }

  function requireDomain(accountId: number, domainId: number): DomainDetail {
    const detail = mirror.domainDetail(accountId, domainId);
    if (!detail)
      throw new AuthwatchError('not_found', `Account ${accountId} has no domain ${domainId} in the mirror.`);
    return detail;
  }

  function currentSettings(): Settings {
    return { alerts: mirror.getAlertSettings(), sync: syncSettings() };
  }

  const facade: Authwatch = {
    overview: (args) =>
      guard(() => {
        const a = parse(schemas.accountScope, args);
        return mirror.overview(a?.accountId);
      }),

    domainDetail: (args) =>
      guard(() => {
        const a = parse(schemas.domainRef, args);
        return mirror.domainDetail(a.accountId, a.domainId);
      }),

    history: (args) =>
      guard(() => {
        const a = parse(schemas.historyArgs, args);
        const { kind, ...query } = a;
        return mirror.history(kind, query) as never;
      }),

    listAlerts: (args) =>
      guard(() => {
        const a = parse(schemas.listAlertsArgs, args) ?? {};
        return mirror.listAlerts(a);
      }),

    acknowledgeAlerts: (args) =>
      guard(() => {
        const a = parse(schemas.acknowledgeArgs, args);
        for (const id of a.ids) {
          if (!mirror.getAlert(id)) throw new AuthwatchError('not_found', `No alert with id ${id}.`);
        }
        mirror.acknowledgeAlerts(a.ids, clock.now());
        return { acknowledged: a.ids.length };
      }),

    snoozeAlert: (args) =>
      guard(() => {
        const a = parse(schemas.snoozeArgs, args);
        mirror.snoozeAlert(a.id, a.until);
        const alert = mirror.getAlert(a.id);
        if (!alert) throw new AuthwatchError('not_found', `No alert with id ${a.id}.`);
        return alert;
      }),

    muteDomain: (args) =>
      guard(() => {
        const a = parse(schemas.muteArgs, args);
        requireDomain(a.accountId, a.domainId);
        mirror.muteDomain(a);
        return { muted: true as const };
      }),

    unmuteDomain: (args) =>
      guard(() => {
        const a = parse(schemas.domainRef, args);
        requireDomain(a.accountId, a.domainId);
        mirror.unmuteDomain(a.accountId, a.domainId);
        return { muted: false as const };
      }),

    getSettings: () => guard(currentSettings),

    updateSettings: (args) =>
      guard(() => {
        const a = parse(schemas.updateSettingsArgs, args);
        if (a.alerts) {
          const patch = Object.fromEntries(Object.entries(a.alerts).filter(([, v]) => v !== undefined));
          mirror.setAlertSettings(patch as Partial<AlertSettings>);
        }
        if (a.sync) {
          const next = {
            ...syncSettings(),
            ...Object.fromEntries(Object.entries(a.sync).filter(([, v]) => v !== undefined)),
          };
          const checked = parse(
            schemas.syncSettingsSchema.refine((s) => s.headroom < s.ratePerMinute, {
              message: 'headroom must be smaller than the rate limit',
            }),
            next,
          );
          mirror.setSetting(SYNC_SETTINGS_KEY, checked);
          // New limits take effect with fresh budgets and syncers.
          budgets = new Map();
          engine.dropAll();
        }
        return currentSettings();
      }),

    listAccounts: () => guard(() => accounts.list()),

    addAccount: (args) =>
      guard(async () => {
        const a = parse(schemas.addAccountArgs, args);
        const added = await accounts.add(a);
        emit({ type: 'accounts_changed' });
        return added;
      }),

    testAccount: (args) =>
      guard(() => {
        const a = parse(schemas.accountRef, args);
        return accounts.test(a.accountId);
      }),

    updateAccount: (args) =>
      guard(async () => {
        const a = parse(schemas.updateAccountArgs, args);
        const updated = await accounts.update(a);
        engine.drop(a.accountId);
        budgets.delete(a.accountId);
        emit({ type: 'accounts_changed' });
        return updated;
      }),

    removeAccount: (args) =>
      guard(async () => {
        const a = parse(schemas.accountRef, args);
        const removed = await accounts.remove(a.accountId);
        engine.drop(a.accountId);
        budgets.delete(a.accountId);
        emit({ type: 'accounts_changed' });
        return removed;
      }),

    syncNow: (args) =>
      guard(async () => {
        const a = parse(schemas.accountScope, args);
        if (a?.accountId !== undefined) accounts.get(a.accountId);
        const results = await engine.syncNow(a?.accountId);
        await deliver();
        return results;
      }),

    syncStatus: () =>
      guard(() => {
        const byId = new Map(mirror.listAccounts().map((acc) => [acc.id, acc]));
        return {
          running: engine.running,
          accounts: engine.status().map((status) => ({
            ...status,
            label: byId.get(status.accountId)?.label ?? '',
            baseUrl: byId.get(status.accountId)?.baseUrl ?? '',
          })),
        };
      }),

    openDomain: (args) =>
      guard(() => {
        const a = parse(schemas.domainRef, args);
        const account = accounts.get(a.accountId);
        const detail = requireDomain(a.accountId, a.domainId);
        const panels: SignalName[] = [...ON_DEMAND_SIGNALS, ...HISTORY_SIGNALS, ...CORE_SIGNALS];
        track(
          engine
            .refresh(account, a.domainId, panels, { staleAfterMs: OPEN_REFRESH_MS })
            .then(() => deliver()),
        );
        return detail;
      }),

    editOperations: () =>
      guard(() =>
        (Object.keys(EDIT_OPERATIONS) as EditOperationName[]).map((name) => {
          const op = EDIT_OPERATIONS[name];
          return {
            name,
            method: op.method,
            path: op.path,
            summary: op.summary,
            takesBody: op.body !== null,
            affects: [
              ...op.affects,
              ...('affectsDomainList' in op && op.affectsDomainList ? (['domains'] as const) : []),
            ],
          };
        }),
      ),

    edit: (args) =>
      guard(async () => {
        const a = parse(schemas.editArgs, args);
        const name = a.operation as EditOperationName;
        const op = EDIT_OPERATIONS[name];
        const account: Account = accounts.get(a.accountId);
        let body: unknown;
        if (op.body === null) {
          if (a.body !== undefined) throw new AuthwatchError('invalid_arguments', `${name} takes no body.`);
        } else {
          body = parse(op.body, a.body);
        }
        const path: Record<string, number> = {};
        for (const param of pathParameters(op.path)) {
          const value = param === 'domain_id' ? (a.domainId ?? a.params?.domain_id) : a.params?.[param];
          if (value === undefined) {
            throw new AuthwatchError(
              'invalid_arguments',
              `${name} needs ${param === 'domain_id' ? 'domainId' : `params.${param}`}.`,
            );
          }
          path[param] = value;
        }
        const api = engine.syncer(account).api;
        const method = op.method.toLowerCase() as 'post' | 'patch' | 'delete';
        const result = await api[method](op.path, {
          params: { path },
          ...(body !== undefined ? { body } : {}),
          priority: 'foreground',
        });
        const repolled: SignalName[] = [];
        const domainId = path.domain_id;
        if (op.affects.length > 0 && domainId !== undefined && mirror.domainDetail(account.id, domainId)) {
          repolled.push(...(await engine.refresh(account, domainId, op.affects, { priority: 'foreground' })));
        }
        if ('affectsDomainList' in op && op.affectsDomainList) {
          repolled.push(...(await engine.refresh(account, null, ['domains'], { priority: 'foreground' })));
        }
        await deliver();
        return {
          operation: name,
          status: result.status,
          requestId: result.requestId,
          data: result.data ?? null,
          repolled,
        };
      }),

    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    start() {
      engine.start(options.scheduler ?? cronScheduler());
    },

    async stop() {
      await engine.stop();
      await facade.whenIdle();
    },

    async whenIdle() {
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
  };
  return facade;
}
