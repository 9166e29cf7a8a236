import type { AlertRuleInfo } from '../../../../shared/bridge/alertRules.ts';
import type {
  AccountView,
  Connectivity,
  OverviewRow,
  Settings,
  SyncStatus,
} from '../../../../shared/bridge/results.ts';
import type { BridgeEventPayload } from '../../../../shared/bridge/events.ts';
import { api } from '../bridge.svelte.ts';
import { errorText } from '../errorText.ts';
import { overviewView } from './overview.svelte.ts';

type Progress = Extract<BridgeEventPayload<'sync-progress'>, { type: 'progress' }>;

/**
 * What every screen shares: the accounts and the one in view, the overview's first screen (./overview.svelte.ts),
 * sync status, progress and connectivity, settings; every domain's row only for the screens that list them
 * all (`needRows`). Loaded from the mirror through the bridge and refreshed on the bridge's events, so it
 * works the same with the service offline.
 */
class Session {
  loaded = $state(false);
  loadError = $state<string | null>(null);
  accounts = $state<AccountView[]>([]);
  /** The account in view; null: all accounts (an agency's portfolio at once). */
  accountId = $state<number | null>(null);
  /** Every domain's row, once a screen asked for them (needRows): the first screen pages instead. */
  rows = $state.raw<OverviewRow[]>([]);
  rowsLoadedAt = $state<number | null>(null);
  private rowsWanted = false;
  sync = $state.raw<SyncStatus | null>(null);
  settings = $state.raw<Settings | null>(null);
  /** Every alert the rules raise, with its words (the inbox's filter and each alert's details). */
  alertRules = $state.raw<AlertRuleInfo[]>([]);
  connectivity = $state<Record<number, Connectivity>>({});
  progress = $state<Record<number, Progress>>({});
  /** Bumped on every 'changed' event: pages re-read what they show. */
  revision = $state(0);

  private reloadTimer: ReturnType<typeof setTimeout> | null = null;

  /** The account scope of the overview: the account in view, or every account (undefined). */
  get scope(): number | undefined {
    // With one account, "every account" is that one: the first screen's answer needs no second ask.
    return this.accounts.length === 1 ? undefined : (this.accountId ?? undefined);
  }

  /** True when any account's service cannot be reached. */
  get offline(): boolean {
    return Object.values(this.connectivity).some((c) => !c.online);
  }

  private started: Promise<void> | null = null;

  /**
   * Loads the first screen and subscribes to the bridge's events, once (main.ts asks before the app is
   * mounted, so the host works on the rows while the window builds its shell; App waits on the same promise).
   */
  start(): Promise<void> {
    return (this.started ??= this.load());
  }

  private async load(): Promise<void> {
    api.on('changed', () => this.scheduleReload());
    // A new account's sync line ("First sync: waiting for the domain list") shows before any data arrives.
    api.on('accounts', () => void Promise.all([this.loadAccounts(), this.loadSync()]).catch(() => undefined));
    api.on('connectivity', (c) => (this.connectivity = { ...this.connectivity, [c.accountId]: c }));
    api.on('sync-progress', (event) => {
      if (event.type === 'progress') this.progress = { ...this.progress, [event.accountId]: event };
      this.scheduleReload();
    });
    // The first screen needs the accounts and its rows: asked together, the rows for the account stored as
    // in view (all accounts when none), and shown as soon as they are here. The sync line, settings and
    // connectivity follow: the host answers calls in order, so asking for them first would hold the rows
    // behind the sync status's planning. Resolves once the first screen can show (the welcome redirect
    // runs then, before any other screen).
    try {
      const stored = Number(localStorage.getItem('authwatch.account'));
      const guess = Number.isInteger(stored) && stored > 0 ? stored : undefined;
      const [accounts] = await Promise.all([api.listAccounts(), overviewView.load(guess)]);
      this.setAccounts(accounts);
      // The stored account left, or another is in view: its rows.
      if (!overviewView.isCurrent(this.scope)) await overviewView.load(this.scope);
      this.loadError = null;
    } catch (error) {
      this.loadError = errorText(error);
    }
    this.loaded = true;
    if (this.loadError !== null) return;
    void Promise.all([
      this.loadSync(),
      this.loadSettings(),
      this.loadConnectivity(),
      this.loadAlertRules(),
    ]).catch((error: unknown) => (this.loadError = errorText(error)));
  }

  async loadAccounts(): Promise<void> {
    this.setAccounts(await api.listAccounts());
    await this.reloadRows();
  }

  /** The account list, and which account is in view (the stored one, else the only one). */
  private setAccounts(accounts: AccountView[]): void {
    this.accounts = accounts;
    const stored = Number(localStorage.getItem('authwatch.account'));
    if (this.accountId !== null && !this.accounts.some((a) => a.id === this.accountId)) this.accountId = null;
    if (this.accountId === null && this.accounts.some((a) => a.id === stored)) this.accountId = stored;
    if (this.accountId === null && this.accounts.length === 1) this.accountId = this.accounts[0]!.id;
  }

  selectAccount(id: number | null): void {
    this.accountId = id;
    if (id === null) localStorage.removeItem('authwatch.account');
    else localStorage.setItem('authwatch.account', String(id));
    // The sidebar's counts follow the account in view on every screen.
    if (!overviewView.isCurrent(this.scope)) void overviewView.load(this.scope, true).catch(() => undefined);
  }

  /** Loads every domain's row (and keeps them fresh) for a screen that lists them all. */
  needRows(): void {
    if (this.rowsWanted) return;
    this.rowsWanted = true;
    void this.loadRows().catch(() => undefined);
  }

  private async loadRows(): Promise<void> {
    this.rows = await api.overview();
    this.rowsLoadedAt = Date.now();
  }

  /** Reads again what the mirror holds: the overview's rows in view, and every row when a screen uses them. */
  async reloadRows(): Promise<void> {
    await Promise.all([overviewView.load(this.scope), ...(this.rowsWanted ? [this.loadRows()] : [])]);
  }

  async loadSync(): Promise<void> {
    this.sync = await api.syncStatus();
  }

  async loadSettings(): Promise<void> {
    this.settings = await api.getSettings();
  }

  async loadAlertRules(): Promise<void> {
    this.alertRules = await api.alertRules();
  }

  /** An alert rule's label ("DMARC policy weakened"); the name itself for a rule this app no longer knows. */
  ruleLabel(name: string): string {
    return this.alertRules.find((r) => r.name === name)?.label ?? name;
  }

  async loadConnectivity(): Promise<void> {
    const list = await api.connectivity();
    this.connectivity = Object.fromEntries(list.map((c) => [c.accountId, c]));
  }

  /** Many signals land together during a sync: re-read once they settle. */
  scheduleReload(): void {
    if (this.reloadTimer) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      this.revision++;
      void Promise.all([this.reloadRows(), this.loadSync()]).catch(() => undefined);
    }, 400);
  }
}

export const session = new Session();
