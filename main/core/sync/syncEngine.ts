import type { RateBudget } from '../../../shared/api/rateBudget.ts';
import type { Account, Mirror } from '../mirror/types.ts';
import type { SignalName } from '../signals/catalog.ts';
import {
  AccountSyncer,
  type AccountSyncStatus,
  type PassResult,
  type SyncClock,
  type SyncLogger,
  type RefreshOptions,
} from './accountSyncer.ts';
import type { SyncEventHandler } from './events.ts';
import type { LooseApi } from './looseApi.ts';
import type { TickScheduler } from './scheduler.ts';

/** What the engine needs from its owner (the facade). */
export interface SyncEngineOptions {
  mirror: Mirror;
  /** The API client of an account; `onRequest` is called for every HTTP attempt. */
  apiFor(account: Account, onRequest: () => void): LooseApi;
  /** The account's rate budget (shared with the facade's edits). */
  budgetFor(accountId: number): RateBudget;
  /** The budgets' sustained rate in requests per minute (see budgetShape). */
  ratePerMinute(): number;
  clock: SyncClock;
  emit: SyncEventHandler;
  afterWrite: () => Promise<void>;
  logger?: SyncLogger;
  concurrency?: number;
}

/** Runs one AccountSyncer per account; ticks them all from one scheduler. */
export class SyncEngine {
  private readonly syncers = new Map<number, { syncer: AccountSyncer; fingerprint: string }>();
  private handle: { stop(): Promise<void> } | null = null;
  /** Scheduled ticks still at work; stop() waits for them. */
  private readonly ticking = new Set<Promise<void>>();

  constructor(private readonly o: SyncEngineOptions) {}

  /** The syncer of an account, rebuilt when its base URL or label changed. */
  syncer(account: Account): AccountSyncer {
    const fingerprint = `${account.label}\u0000${account.baseUrl}`;
    const existing = this.syncers.get(account.id);
    if (existing && existing.fingerprint === fingerprint) return existing.syncer;
    let syncer: AccountSyncer | null = null;
    const api = this.o.apiFor(account, () => syncer?.noteRequest());
    syncer = new AccountSyncer({
      mirror: this.o.mirror,
      accountId: account.id,
      api,
      budget: this.o.budgetFor(account.id),
      ratePerMinute: this.o.ratePerMinute(),
      clock: this.o.clock,
      emit: this.o.emit,
      afterWrite: this.o.afterWrite,
      ...(this.o.logger ? { logger: this.o.logger } : {}),
      ...(this.o.concurrency ? { concurrency: this.o.concurrency } : {}),
    });
    this.syncers.set(account.id, { syncer, fingerprint });
    return syncer;
  }

  /** Forgets an account's syncer (removed account, changed settings). */
  drop(accountId: number): void {
    this.syncers.delete(accountId);
  }

  /** Forgets every syncer (e.g. the rate settings changed). */
  dropAll(): void {
    this.syncers.clear();
  }

  /** One tick for every account, side by side (each has its own token and budget). */
  async tick(): Promise<void> {
    const accounts = this.o.mirror.listAccounts();
    const live = new Set(accounts.map((a) => a.id));
    for (const id of this.syncers.keys()) if (!live.has(id)) this.syncers.delete(id);
    await Promise.all(accounts.map((account) => this.syncer(account).tick()));
    // Alerts also become deliverable without a write (a snooze or quiet hours ending): check every tick.
    await this.o.afterWrite();
  }

  /** A full pass for one account or all of them. */
  async syncNow(accountId?: number): Promise<PassResult[]> {
    const accounts = this.o.mirror
      .listAccounts()
      .filter((a) => accountId === undefined || a.id === accountId);
    return Promise.all(accounts.map((account) => this.syncer(account).runPass()));
  }

  /** Fetches some signals of a domain now (after an edit, or when the user opens the domain). */
  async refresh(
    account: Account,
    domainId: number | null,
    signals: readonly SignalName[],
    options: RefreshOptions = {},
  ): Promise<SignalName[]> {
    return this.syncer(account).refresh(domainId, signals, options);
  }

  /** Status of every account. */
  status(): AccountSyncStatus[] {
    return this.o.mirror.listAccounts().map((account) => this.syncer(account).status());
  }

  /** True while the scheduler is ticking. */
  get running(): boolean {
    return this.handle !== null;
  }

  /** Starts ticking on the scheduler (idempotent). */
  start(scheduler: TickScheduler): void {
    if (this.handle) return;
    this.handle = scheduler.start(() => {
      const run = this.tick().catch((error: unknown) => {
        this.o.logger?.error('sync tick failed', {
          error: error instanceof Error ? error.message : String(error),
        });
      });
      this.ticking.add(run);
      return run.finally(() => this.ticking.delete(run));
    });
  }

  /** Stops ticking; resolves when the scheduler stopped and the tick in flight (if any) finished. */
  async stop(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.stop();
    // node-cron's stop does not wait for a running tick, and the owner closes the mirror right after.
    await Promise.all([...this.ticking]);
  }
}
