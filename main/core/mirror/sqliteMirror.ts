import type { OverviewPage } from '../../../shared/bridge/overviewPage.ts';
import { overviewPage, type OverviewPageQuery } from './overviewPage.ts';
import type { Database } from 'better-sqlite3';
import type { RuleHandler } from '../alerts/ruleDefinition.ts';
import { alertCatalogue, rulesOfLiveCheck, rulesReading, type AlertRules } from '../alerts/ruleSet.ts';
import { accountAlertsOnError } from '../alerts/rules/accountAlertsOnError.ts';
import { accountAlertsOnSuccess } from '../alerts/rules/accountAlertsOnSuccess.ts';
import { protocolDisconnected } from '../alerts/rules/protocolDisconnected.ts';
import { protocolRestored } from '../alerts/rules/protocolRestored.ts';
import { domainStoppedResolving } from '../alerts/rules/domainStoppedResolving.ts';
import { accountAlertKey } from '../alerts/keys.ts';
import { accountAlertEvent } from '../alerts/accountAlerts.ts';
import { inQuietHours } from '../alerts/quietHours.ts';
import type { AlertDomain, AlertEvent, AlertSettings, RuleContext } from '../alerts/types.ts';
import type { SignalName, SignalPayloads } from '../signals/catalog.ts';
import type { DomainSignalDefinition, RuleIo, SignalDefinition } from '../signals/definition.ts';
import type { MirrorRegistry } from './mirrorRegistry.ts';
import { AccountsStore } from './accountsStore.ts';
import { AlertStore } from './alertStore.ts';
import { SqliteDeliveryStore } from './deliveryStore.ts';
import { SqliteDigestStore } from './digestStore.ts';
import { DnsWatchStore, type DnsWatchRecord, type ServiceView } from './dnsWatchStore.ts';
import { DomainsStore, publicDomain, type DomainRecord } from './domainsStore.ts';
import { LiveCheckStore, type LiveCheckHistoryEntry, type LiveCheckRow } from './liveCheckStore.ts';
import { toIso, toIsoOrNull } from './isoTime.ts';
import { MirrorError } from './mirrorError.ts';
import { ChangeJournal, type JournalEntry } from './changeJournal.ts';
import { PanelStore, type StoredPanel } from './panelStore.ts';
import { recordObservations, type RecordObservation } from './recordObservations.ts';
import { domainSenders, senderPolls, type SenderPoll, type SenderSummary } from './senderHistory.ts';
import type { Protocol } from '../signals/primitives.ts';
import { ReadQueries } from './readQueries.ts';
import { appEdit, latestDnsEvents } from './ruleInputs.ts';
import { SettingsStore } from './settingsStore.ts';
import { StatusSummaries } from './statusSummary.ts';
import { extraSignalsOf } from './extraShown.ts';
import { sharedPublicSyncState, SyncStateStore } from './syncStateStore.ts';
import type {
  Account,
  Alert,
  AlertDelivery,
  DnsWatchWrite,
  LiveCheckWrite,
  DomainDetail,
  HistoryKind,
  HistoryQuery,
  HistoryRows,
  Instant,
  ListAlertsQuery,
  Mirror,
  MirrorClock,
  MirrorDomain,
  RowChanges,
  RowCursor,
  MuteDomainInput,
  MirrorOverviewRow,
  RaiseAccountAlertInput,
  RecordSyncErrorInput,
  SyncErrorInput,
  SetNextDueInput,
  SyncState,
  WriteResult,
  OverviewRow,
  WriteSignalInput,
} from './types.ts';
import { SilenceStore } from './silenceStore.ts';
import { RouteStore } from './routeStore.ts';
import { NoticeSchedule } from './noticeSchedule.ts';
import { SilenceNotices } from './silenceNotices.ts';
import { routeAlert } from './routing.ts';
import { dueNotices, nextNoticeAt, type DueNotice } from './escalation.ts';
import { NoticeStore } from './noticeStore.ts';
import { MaintenanceStore } from './maintenanceStore.ts';
import { insertOutbox, toldChannels } from './outboxRows.ts';
import { AckStore, type AckEntry } from './ackStore.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import { extraValues } from './extraSignalStore.ts';
import { reportedSendingIps, serviceSpfLookupCount, type ServiceSpfCount } from './liveCheckFacts.ts';

const PENDING_KEPT_MS = 7 * 24 * 3600 * 1000;

/** The Mirror over a better-sqlite3 database (opened and migrated by openMirror). */
export class SqliteMirror implements Mirror {
  private readonly accounts: AccountsStore;
  private readonly domains: DomainsStore;
  private readonly syncStates: SyncStateStore;
  private readonly alertStore: AlertStore;
  private readonly settings: SettingsStore;
  private readonly reads: ReadQueries;
  private readonly panels: PanelStore;
  /** Delivery channels and the outbox (rows written with the alerts, in the same transaction). */
  readonly delivery: SqliteDeliveryStore;
  /** Weekly digest schedules and what each already delivered. */
  readonly digests: SqliteDigestStore;
  private readonly dnsWatch: DnsWatchStore;
  private readonly liveChecks: LiveCheckStore;
  private readonly journal: ChangeJournal;
  /** Silences, the alerts they hold back, the lifecycle's audit. */
  readonly silences: SilenceStore;
  private readonly acks: AckStore;
  /** The ordered routing table: which channels each alert goes to. */
  readonly routes: RouteStore;
  private readonly notices: NoticeStore;
  private readonly schedule: NoticeSchedule;
  private readonly silenceNotices: SilenceNotices;
  /** Recurring maintenance windows: open ones hold alerts as silences do. */
  readonly maintenance: MaintenanceStore;
  private readonly summaries: StatusSummaries;
  /** Depth of the mirror's own write transactions (a batch holds several): statuses are derived at the outermost. */
  private writeDepth = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: MirrorClock,
    /** The signals it stores, the rules its writes run, the status model (passed in: storage loads none). */
    private readonly registry: MirrorRegistry,
    private readonly rules: AlertRules,
  ) {
    this.accounts = new AccountsStore(db);
    this.domains = new DomainsStore(db);
    this.syncStates = new SyncStateStore(db);
    this.alertStore = new AlertStore(db, alertCatalogue(registry.rules));
    this.settings = new SettingsStore(db);
    this.panels = new PanelStore(db);
    this.routes = new RouteStore(db);
    this.notices = new NoticeStore(db);
    this.schedule = new NoticeSchedule(db);
    this.delivery = new SqliteDeliveryStore(
      db,
      this.alertStore,
      () => this.nowIso(),
      (alert, channels) => routeAlert(this.routes.list(), this.silences.factsOf(alert), channels),
    );
    this.digests = new SqliteDigestStore(db);
    this.dnsWatch = new DnsWatchStore(db);
    this.liveChecks = new LiveCheckStore(db);
    this.journal = new ChangeJournal(db);
    this.silences = new SilenceStore(db);
    this.maintenance = new MaintenanceStore(db);
    this.silences.addHoldSource((now) => this.maintenance.openAt(now));
    this.acks = new AckStore(db);
    this.silenceNotices = new SilenceNotices({
      db,
      silences: this.silences,
      routes: () => this.routes.list(),
      channels: () => this.delivery.listChannels(),
      alert: (id) => this.alertStore.get(id) ?? null,
    });
    this.summaries = new StatusSummaries(db, registry.status);
    this.reads = new ReadQueries(
      db,
      this.domains,
      this.syncStates,
      this.alertStore,
      this.summaries,
      extraSignalsOf(registry.signals),
    );
    this.refreshStatuses();
  }

  /**
   * Derives the statuses a mirror from before the summaries (or from another status model) lacks, once, when
   * it opens. Another process writing at that moment leaves them to its own flush and to readers, which
   * derive what is not current themselves.
   */
  private refreshStatuses(): void {
    try {
      // Nothing to write (the usual open): no write transaction, no fsync.
      if (this.summaries.stale()) this.db.transaction(() => this.summaries.refreshStale())();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }

  /**
   * A write transaction of the mirror that may change what a domain's status reads: the statuses its rows
   * changed are derived again before the outermost one commits (a tick's batch: once, for every domain it
   * touched).
   */
  private write<T>(writes: () => T): T {
    return this.db.transaction((): T => {
      this.writeDepth++;
      try {
        const result = writes();
        if (this.writeDepth === 1) this.summaries.flush();
        return result;
      } finally {
        this.writeDepth--;
      }
    })();
  }

  /** Alert events applied, and their outbox rows written, inside the caller's transaction. */
  private applyAlerts(
    accountId: number,
    domainPk: number | null,
    events: AlertEvent[],
    at: string,
  ): WriteResult {
    const result = this.alertStore.apply(accountId, domainPk, events, at);
    // A silenced alert is recorded and shown, but told to no channel until its silence ends.
    this.delivery.enqueue({ ...result, alerts: this.silences.holdSilenced(result.alerts, at) }, at);
    return result;
  }

  releaseSilenced(at?: Instant): Alert[] {
    const now = this.nowIso(at);
    return this.db.transaction(() => {
      const released = this.silences.release(now, (id) => this.alertStore.get(id) ?? null);
      if (released.length > 0) this.delivery.enqueue({ alerts: released, resolved: [] }, now);
      return released;
    })();
  }

  noteSilences(at?: Instant): number {
    return this.silenceNotices.sweep(this.nowIso(at));
  }

  private nowIso(at?: Instant): string {
    return toIso(at ?? this.clock.now());
  }

  upsertAccount(input: { id?: number; label: string; baseUrl: string }): Account {
    return this.accounts.upsert(input, this.nowIso());
  }

  listAccounts(): Account[] {
    return this.accounts.list();
  }

  removeAccount(id: number): boolean {
    this.syncStates.invalidate(id);
    this.domains.invalidate(id);
    return this.accounts.remove(id);
  }

  setAccountPaused(id: number, reason: string | null): void {
    this.accounts.setPaused(id, reason);
  }

  listDomains(accountId: number, options?: { includeRemoved?: boolean }): MirrorDomain[] {
    return this.domains.list(accountId, options?.includeRemoved ?? false).map(publicDomain);
  }

  writeSignal<S extends SignalName>(input: WriteSignalInput<S>): WriteResult {
    const meta: SignalDefinition | undefined = Object.hasOwn(this.registry.signals, input.signal)
      ? this.registry.signals[input.signal]
      : undefined;
    if (!meta) throw new MirrorError('invalid_input', `unknown signal ${String(input.signal)}`);
    const at = toIso(input.fetchedAt);
    const nextDueAt = toIsoOrNull(input.nextDueAt);
    return this.write((): WriteResult => {
      const account = this.accounts.require(input.accountId);
      if (meta.per === 'account') {
        const list = this.domains.replaceList(
          account.id,
          input.payload as SignalPayloads['domains'],
          at,
          input.skipped?.ids,
        );
        // The states join the domain rows (name, remote id): read them all again.
        this.syncStates.invalidate(account.id);
        const events = this.decide(accountAlertsOnSuccess)(
          null,
          { scope: meta.scope },
          this.context(account, null, at),
        );
        const result = this.applyAlerts(account.id, null, events, at);
        this.alertStore.markDomainsRemoved(list.removed, at);
        this.alertStore.markDomainsReturned(list.returned);
        this.syncStates.success(account.id, null, input.signal, at, nextDueAt);
        if (input.skipped)
          this.syncStates.note(account.id, null, input.signal, skippedWords(input.skipped), at);
        return result;
      }
      if (input.domainId === null) {
        throw new MirrorError(
          'invalid_input',
          `${input.signal} is a per-domain signal: domainId is required`,
        );
      }
      const definition = meta as DomainSignalDefinition<unknown>;
      const payload = input.payload as SignalPayloads[Exclude<SignalName, 'domains'>];
      // Answers that name the domain let a renamed domain be seen; others (lists, composed parts, the null of
      // a 404 declared absent) do not.
      const named = Array.isArray(payload) ? undefined : (payload as { fqdn?: unknown } | null)?.fqdn;
      const fqdn = typeof named === 'string' ? named : undefined;
      const domain = this.domains.resolve(account.id, input.domainId, fqdn, at);
      const ctx = this.context(account, domain, at);
      const evaluate = this.prepareRules(input.signal, definition, domain, account.id);
      definition.store(this.db, payload, {
        domainPk: domain.pk,
        fetchedAt: at,
        window: input.window ?? { start: '', end: '' },
      });
      const events = [
        ...evaluate(payload, ctx),
        ...this.decide(accountAlertsOnSuccess)(null, { scope: meta.scope }, ctx),
      ];
      const result = this.applyAlerts(account.id, domain.pk, events, at);
      this.syncStates.success(account.id, domain.pk, input.signal, at, nextDueAt);
      return result;
    });
  }

  batch<T>(writes: () => T): T {
    // better-sqlite3 turns a transaction begun inside another into a savepoint of it.
    return this.write(writes);
  }

  /**
   * The rules reading this signal (each rule's file says which signals it reads): the signal's rule state is
   * read before the rows are written; the returned function reads it again after and runs them. A signal no
   * rule reads returns no events and reads nothing.
   */
  private prepareRules(
    signal: SignalName,
    definition: DomainSignalDefinition<unknown>,
    domain: DomainRecord,
    accountId: number,
  ): (payload: unknown, ctx: RuleContext) => AlertEvent[] {
    const ids = rulesReading(signal, this.registry.rules);
    const readState = definition.ruleState;
    if (!readState || ids.length === 0) return () => [];
    const io: RuleIo = {
      db: this.db,
      domainPk: domain.pk,
      everFetched: (signals) =>
        signals.some(
          (s) =>
            Object.hasOwn(this.registry.signals, s) &&
            this.syncStates.find(accountId, domain.pk, s as SignalName)?.lastSuccessAt != null,
        ),
      appEdit: (protocol) => appEdit(this.db, domain.pk, protocol),
    };
    const before = readState(io, 'before');
    return (payload, ctx) => {
      const write = { before, after: readState(io, 'after'), payload, io };
      return ids.flatMap((id) => {
        const rule = this.registry.rules[id]!;
        // The types held each handler to its signal's state and payload when the rule was declared.
        const handler = rule.on![signal as keyof typeof rule.on] as RuleHandler;
        return handler(write, ctx, this.rules[id] ?? rule.run);
      });
    };
  }

  /** The decision function the mirror was given for this rule (a test may have replaced it). */
  private decide<F extends AlertRules[string]>(rule: F): F {
    const defined = this.registry.rules;
    const id = Object.keys(defined).find((r) => defined[r]!.run === rule);
    return ((id !== undefined ? this.rules[id] : undefined) ?? rule) as F;
  }

  private context(account: Account, domain: DomainRecord | null, at: string): RuleContext {
    const alertDomain: AlertDomain | null = domain ? { id: domain.domainId, fqdn: domain.fqdn } : null;
    return {
      accountId: account.id,
      accountLabel: account.label,
      domain: alertDomain,
      at,
      openAlerts: this.alertStore.openAlerts(account.id, domain?.pk ?? null),
      settings: this.settings.alertSettings(),
      latestDnsEvents: domain ? latestDnsEvents(this.db, domain.pk) : {},
      watchedDns: domain ? this.dnsWatch.watched(domain.pk) : {},
    };
  }

  recordSyncError(input: RecordSyncErrorInput): WriteResult {
    const at = toIso(input.at);
    const nextDueAt = toIsoOrNull(input.nextDueAt);
    return this.db.transaction((): WriteResult => {
      const account = this.accounts.require(input.accountId);
      const domain = input.domainId === null ? null : this.domains.require(account.id, input.domainId);
      const previous = this.syncStates.find(account.id, domain?.pk ?? null, input.signal)?.lastError ?? null;
      this.syncStates.failure(account.id, domain?.pk ?? null, input.signal, input.error, at, nextDueAt);
      const scope = input.error.missingScope ?? this.registry.signals[input.signal]?.scope ?? null;
      const events = this.decide(accountAlertsOnError)(
        previous,
        { code: String(input.error.code), message: String(input.error.message), scope },
        this.context(account, null, at),
      );
      return this.applyAlerts(account.id, null, events, at);
    })();
  }

  raiseAccountAlert(input: RaiseAccountAlertInput): WriteResult {
    const at = this.nowIso(input.at);
    return this.db.transaction((): WriteResult => {
      const account = this.accounts.require(input.accountId);
      const event = accountAlertEvent(
        input.kind,
        account.id,
        account.label,
        input.missingScope ?? null,
        input.message,
      );
      return this.applyAlerts(account.id, null, [event], at);
    })();
  }

  getSyncStates(accountId: number): SyncState[] {
    return this.syncStates.list(accountId).map(sharedPublicSyncState);
  }

  syncStatesSince(accountId: number, cursor: RowCursor | null): RowChanges<SyncState> {
    const changes = this.syncStates.changesSince(accountId, cursor);
    return { ...changes, rows: changes.rows.map(sharedPublicSyncState) };
  }

  domainsSince(accountId: number, cursor: RowCursor | null): RowChanges<MirrorDomain> {
    const changes = this.domains.changesSince(accountId, cursor);
    return { ...changes, rows: changes.rows.map(publicDomain) };
  }

  clearScopeHolds(accountId: number, grantedScopes: readonly string[], at?: Instant): WriteResult {
    const when = this.nowIso(at);
    return this.db.transaction((): WriteResult => {
      this.accounts.require(accountId);
      this.syncStates.clearScopeHolds(accountId);
      const events: AlertEvent[] = grantedScopes.map((scope) => ({
        type: 'resolve',
        dedupeKey: accountAlertKey(accountId, 'scope_missing', scope),
      }));
      return this.applyAlerts(accountId, null, events, when);
    })();
  }

  setNextDue(input: SetNextDueInput): void {
    const nextDueAt = toIsoOrNull(input.nextDueAt);
    this.db.transaction(() => {
      this.accounts.require(input.accountId);
      const domain = input.domainId === null ? null : this.domains.require(input.accountId, input.domainId);
      this.syncStates.setNextDue(
        input.accountId,
        domain?.pk ?? null,
        input.signal,
        nextDueAt,
        input.periodSeconds,
      );
    })();
  }

  lastSeen(accountId: number, signal: SignalName, domainId: number | null): string | null {
    const domain = domainId === null ? undefined : this.domains.find(accountId, domainId);
    if (domainId !== null && !domain) return null;
    const pk = domain?.pk ?? null;
    const max = (sql: string) => (prepared(this.db, sql).get(pk) as { v: string | null }).v;
    const definition = this.registry.signals[signal];
    if (definition.per === 'domain' && definition.lastSeenSql) return max(definition.lastSeenSql);
    return this.syncStates.find(accountId, pk, signal)?.lastSuccessAt ?? null;
  }

  overview(accountId?: number, options?: { includeRemoved?: boolean }): MirrorOverviewRow[] {
    return this.reads.overview(accountId, this.clock.now(), options?.includeRemoved ?? false);
  }

  windowOverview(accountId?: number): OverviewRow[] {
    return this.reads.windowOverview(accountId);
  }

  overviewPage(query: OverviewPageQuery): OverviewPage {
    return overviewPage(this.db, { summaries: this.summaries }, query);
  }

  domainDetail(accountId: number, domainId: number): DomainDetail | null {
    return this.reads.domainDetail(accountId, domainId, this.nowIso());
  }

  history<K extends HistoryKind>(kind: K, query: HistoryQuery): HistoryRows[K][] {
    return this.reads.history(kind, query);
  }

  recordPendingChange(input: Parameters<Mirror['recordPendingChange']>[0]): void {
    const domain = this.domains.find(input.accountId, input.domainId);
    if (!domain)
      throw new MirrorError('unknown_domain', `no domain ${input.domainId} in account ${input.accountId}`);
    const at = this.nowIso(input.at);
    const baseline = this.summaries.observedAt(domain.pk, input.protocol);
    this.write(() => {
      // A change nobody confirmed in a week is history, not pending.
      prepared(this.db, 'DELETE FROM pending_changes WHERE changed_at < ?').run(
        toIso(Date.parse(at) - PENDING_KEPT_MS),
      );
      prepared(
        this.db,
        `INSERT INTO pending_changes (domain_id, protocol, summary, changed_at, baseline_at, expect_json)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (domain_id, protocol) DO UPDATE SET summary = excluded.summary,
             changed_at = excluded.changed_at, baseline_at = excluded.baseline_at, expect_json = excluded.expect_json`,
      ).run(domain.pk, input.protocol, input.summary, at, baseline, JSON.stringify(input.expect));
    });
  }

  listAlerts(query: ListAlertsQuery = {}): Alert[] {
    return this.alertStore.list(query);
  }

  listAlertsOfOpenScopes(query: { accountId?: number; domainId?: number } = {}): Alert[] {
    return this.alertStore.listOfOpenScopes(query);
  }

  recordObservations(accountId: number, domainId: number, protocol: Protocol): RecordObservation[] {
    const domain = this.domains.find(accountId, domainId);
    return domain ? recordObservations(this.db, domain.pk, protocol) : [];
  }

  domainSenders(accountId: number, domainId: number): SenderSummary[] {
    const domain = this.domains.find(accountId, domainId);
    return domain ? domainSenders(this.db, domain.pk) : [];
  }

  senderHistory(accountId: number, domainId: number, source: string): SenderPoll[] {
    const domain = this.domains.find(accountId, domainId);
    return domain ? senderPolls(this.db, domain.pk, source) : [];
  }

  getAlert(id: number): Alert | null {
    return this.alertStore.get(id) ?? null;
  }

  acknowledgeAlerts(ids: number[], at?: Instant): void {
    const when = this.nowIso(at);
    this.db.transaction(() => this.alertStore.acknowledge(ids, when))();
  }

  escalateDue(at?: Instant): number {
    const routes = this.routes.list();
    if (!routes.some((r) => r.escalateAfterMinutes !== null || r.repeatMinutes !== null)) return 0;
    const now = this.nowIso(at);
    const nowMs = Date.parse(now);
    // When each alert looked at can next owe something: kept only once the transaction committed.
    const looked: [number, number][] = [];
    const queued = this.db.transaction(() => {
      const candidates = this.notices.candidates(!routes.some((r) => r.repeatMinutes !== null));
      const due = this.schedule.due(candidates, nowMs, routes);
      if (due.length === 0) return 0;
      const channels = this.delivery.listChannels();
      const known = new Set(channels.map((c) => c.id));
      const active = this.silences.activeAt(now);
      let count = 0;
      for (const id of due) {
        const alert = this.alertStore.get(id);
        if (!alert) continue;
        // A silenced alert is never escalated nor repeated: planned work pages nobody. Look again when the
        // hold ends (one ended early is audited, which makes the sweep look at everything again).
        const hold = this.silences.silencing(alert, now, active);
        if (hold) looked.push([id, Date.parse(hold.endsAt)]);
        if (hold || this.silences.isHeld(id)) continue;
        const facts = this.silences.factsOf(alert);
        const taken = routeAlert(routes, facts, channels).routes;
        const state = (r: number, k: DueNotice['kind']) => this.notices.state(id, r, k);
        for (const notice of dueNotices(alert, taken, nowMs, state, toldChannels(this.db, id))) {
          // An escalation names its channels itself: still never the channel the alert is about.
          const to = notice.channelIds.filter((c) => known.has(c) && c !== facts.aboutChannelId);
          insertOutbox(
            this.db,
            id,
            notice.kind === 'escalated' ? 'alert.escalated' : 'alert.repeated',
            to,
            now,
          );
          this.notices.record(id, notice, now);
          count += to.length;
        }
        looked.push([id, nextNoticeAt(alert, taken, state)]);
      }
      return count;
    })();
    for (const [id, next] of looked) this.schedule.set(id, next);
    return queued;
  }

  acknowledge(id: number, by: { actor: string; note: string | null }, at?: Instant): Alert {
    const when = this.nowIso(at);
    return this.write(() => {
      const before = this.alertStore.get(id);
      if (!before) throw new MirrorError('unknown_alert', `No alert ${id}.`);
      this.alertStore.acknowledge([id], when);
      this.acks.record(id, { action: 'acknowledged', at: when, actor: by.actor, note: by.note });
      this.silences.audit(when, by.actor, 'alert.acknowledged', `alert ${id}`, { note: by.note });
      // Channels told of the open alert hear that someone has it (once: a second note is history only).
      if (before.acknowledgedAt === null && before.resolvedAt === null)
        this.acks.enqueueUpdate(id, 'alert.acknowledged', when);
      return this.alertStore.get(id)!;
    });
  }

  unacknowledge(id: number, actor: string, at?: Instant): Alert {
    const when = this.nowIso(at);
    return this.write(() => {
      const before = this.alertStore.get(id);
      if (!before) throw new MirrorError('unknown_alert', `No alert ${id}.`);
      if (!this.acks.clear(id)) return before;
      this.acks.record(id, { action: 'unacknowledged', at: when, actor, note: null });
      this.silences.audit(when, actor, 'alert.unacknowledged', `alert ${id}`, {});
      if (before.resolvedAt === null) this.acks.enqueueUpdate(id, 'alert.unacknowledged', when);
      return this.alertStore.get(id)!;
    });
  }

  acknowledgements(id: number): AckEntry[] {
    return this.acks.history(id);
  }

  snoozeAlert(id: number, until: Instant): void {
    this.alertStore.snooze(id, toIso(until));
  }

  muteDomain(input: MuteDomainInput): void {
    const domain = this.domains.require(input.accountId, input.domainId);
    this.alertStore.mute(domain.pk, this.nowIso(), toIsoOrNull(input.until));
  }

  unmuteDomain(accountId: number, domainId: number): void {
    this.alertStore.unmute(this.domains.require(accountId, domainId).pk);
  }

  pendingDeliveries(now?: Instant): Alert[] {
    const at = toIso(now ?? this.clock.now());
    const settings = this.settings.alertSettings();
    // Quiet hours hold warnings and notices (nothing is lost: they are pending again when the hours end);
    // a critical alert still notifies, unless the user chose to hold criticals too.
    const pending = this.alertStore.pending(at);
    if (!inQuietHours(Date.parse(at), settings.quietHours, settings.timeZone)) return pending;
    return settings.quietHoldsCriticals ? [] : pending.filter((alert) => alert.severity === 'critical');
  }

  markDelivered(ids: number[], channel: string, at?: Instant): void {
    const when = this.nowIso(at);
    this.db.transaction(() => this.alertStore.markDelivered(ids, channel, when))();
  }

  deliveries(alertId: number): AlertDelivery[] {
    return this.alertStore.deliveries(alertId);
  }

  getSetting(key: string): unknown {
    return this.settings.get(key);
  }

  setSetting(key: string, value: unknown): void {
    this.settings.set(key, value, this.nowIso());
  }

  getAlertSettings(): AlertSettings {
    return this.settings.alertSettings();
  }

  setAlertSettings(patch: Partial<AlertSettings>): AlertSettings {
    return this.settings.setAlertSettings(patch, this.nowIso());
  }

  getPanel(accountId: number, requestKey: string): StoredPanel | null {
    return this.panels.get(accountId, requestKey);
  }

  putPanel(input: {
    accountId: number;
    requestKey: string;
    panel: string;
    domainId: number | null;
    payload: unknown;
    fetchedAt?: Instant;
  }): StoredPanel {
    const fetchedAt = this.nowIso(input.fetchedAt);
    this.panels.put({ ...input, fetchedAt });
    return { fetchedAt, payload: input.payload };
  }

  panelsNamed(accountId: number, panel: string, domainId: number | null): StoredPanel[] {
    return this.panels.named(accountId, panel, domainId);
  }

  recordChange(accountId: number, entry: JournalEntry): void {
    this.journal.record(accountId, entry);
  }

  journalEntries(accountId: number, requestIds: readonly string[]): JournalEntry[] {
    return this.journal.find(accountId, requestIds);
  }

  writeDnsWatch(writes: DnsWatchWrite[], at?: Instant): WriteResult {
    const when = this.nowIso(at);
    return this.write((): WriteResult => {
      const result: WriteResult = { alerts: [], resolved: [] };
      const accounts = new Map(this.accounts.list().map((a) => [a.id, a]));
      for (const write of writes) {
        const account = accounts.get(write.accountId);
        const domain = account ? this.domains.find(account.id, write.domainId) : undefined;
        // The domain left the mirror (account removed, list changed) while its answers were on the way.
        if (!account || !domain) continue;
        const before = this.dnsWatch.reading(domain.pk);
        const changed = write.records.some(
          (r) => before?.protocols[r.protocol]?.status !== (r.state ?? undefined),
        );
        for (const record of write.records) this.dnsWatch.upsert(domain.pk, record);
        const after = changed ? this.dnsWatch.reading(domain.pk) : null;
        if (!after && !write.apex) continue;
        const ctx = this.context(account, domain, when);
        const events = [
          ...(write.apex
            ? this.decide(domainStoppedResolving)(write.apex.before, write.apex.after, ctx)
            : []),
          ...(after ? this.decide(protocolDisconnected)(before, after, ctx) : []),
          ...(after ? this.decide(protocolRestored)(before, after, ctx) : []),
        ];
        const applied = this.applyAlerts(account.id, domain.pk, events, when);
        result.alerts.push(...applied.alerts);
        result.resolved.push(...applied.resolved);
      }
      return result;
    });
  }

  dnsWatchRecords(accountId: number, domainId: number): DnsWatchRecord[] {
    const domain = this.domains.find(accountId, domainId);
    return domain ? this.dnsWatch.list(domain.pk) : [];
  }

  serviceProtocolView(accountId: number, domainId: number): ServiceView | null {
    const domain = this.domains.find(accountId, domainId);
    return domain ? this.dnsWatch.serviceView(domain.pk) : null;
  }

  dnsWatchSummary(): ReturnType<Mirror['dnsWatchSummary']> {
    return this.dnsWatch.summary();
  }

  writeLiveCheck(write: LiveCheckWrite, at?: Instant): WriteResult {
    const when = this.nowIso(at);
    return this.write((): WriteResult => {
      const account = this.accounts.list().find((a) => a.id === write.accountId);
      const domain = write.domainId === null ? null : this.domains.find(write.accountId, write.domainId);
      // The domain or account left the mirror while the probe was out.
      if (!account || (write.domainId !== null && !domain)) return { alerts: [], resolved: [] };
      const key = { check: write.check, accountId: account.id, domainPk: domain?.pk ?? null };
      const reading = (row: LiveCheckRow | null) =>
        row && row.result !== null && row.resultAt !== null
          ? { result: row.result, checkedAt: row.resultAt }
          : null;
      const before = reading(this.liveChecks.get(key));
      const checked = write.status !== 'unknown';
      this.liveChecks.put(
        key,
        {
          status: write.status,
          words: write.words,
          dnsSeen: write.dnsSeen,
          ...(checked ? { result: write.result ?? null } : {}),
        },
        when,
      );
      // An unknown attempt is no evidence: nothing is raised and nothing resolved on it.
      if (!checked) return { alerts: [], resolved: [] };
      const after = reading(this.liveChecks.get(key));
      const ctx = this.context(account, domain ?? null, when);
      const events = rulesOfLiveCheck(write.check, this.registry.rules).flatMap((id) =>
        (this.rules[id] ?? this.registry.rules[id]!.run)(before as never, after as never, ctx),
      );
      return this.applyAlerts(account.id, domain?.pk ?? null, events, when);
    });
  }

  liveCheck(check: string, accountId: number, domainId: number | null): LiveCheckRow | null {
    const domain = domainId === null ? null : this.domains.find(accountId, domainId);
    if (domainId !== null && !domain) return null;
    return this.liveChecks.get({ check, accountId, domainPk: domain?.pk ?? null });
  }

  serviceSpfCount(accountId: number, domainId: number): ServiceSpfCount | null {
    const domain = this.domains.find(accountId, domainId);
    return domain ? serviceSpfLookupCount(this.db, domain.pk) : null;
  }

  extraSignalValue(
    accountId: number,
    domainId: number,
    signal: string,
  ): { value: unknown; fetchedAt: string } | null {
    const domain = this.domains.find(accountId, domainId);
    const [newest] = domain ? extraValues(this.db, domain.pk, signal) : [];
    return newest ? { value: newest.value, fetchedAt: newest.fetchedAt } : null;
  }

  reportedSendingIps(accountId: number, domainId: number): string[] {
    const domain = this.domains.find(accountId, domainId);
    return domain ? reportedSendingIps(this.db, domain.pk) : [];
  }

  liveChecksOfDomain(accountId: number, domainId: number): LiveCheckRow[] {
    const domain = this.domains.find(accountId, domainId);
    return domain ? this.liveChecks.ofDomain(domain.pk) : [];
  }

  allLiveChecks(accountId?: number): LiveCheckRow[] {
    return this.liveChecks.all(accountId);
  }

  liveCheckHistory(check: string, accountId: number, domainId: number | null): LiveCheckHistoryEntry[] {
    const domain = domainId === null ? null : this.domains.find(accountId, domainId);
    if (domainId !== null && !domain) return [];
    return this.liveChecks.history({ check, accountId, domainPk: domain?.pk ?? null });
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** The entries of a list answer set apart, as the note on the list's sync state. */
function skippedWords(skipped: { words: string[] }): SyncErrorInput {
  const n = skipped.words.length;
  return {
    status: 200,
    code: 'skipped_entries',
    message:
      `${n === 1 ? '1 entry' : `${n} entries`} of the server's domain list could not be read and ` +
      `${n === 1 ? 'was' : 'were'} skipped; the others synced — ${skipped.words.slice(0, 5).join('; ')}` +
      (n > 5 ? `; and ${n - 5} more` : ''),
    requestId: '',
    retryable: false,
  };
}
