import { extraSignalRows, type ExtraSignals } from './extraShown.ts';
import type { Database } from 'better-sqlite3';
import type { SignalName } from '../signals/catalog.ts';
import { PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import type { AlertStore } from './alertStore.ts';
import { publicDomain, type DomainsStore } from './domainsStore.ts';
import { publicSyncState, syncErrorOf, type StoredSyncState, type SyncStateStore } from './syncStateStore.ts';
import type {
  DomainDetail,
  HistoryKind,
  HistoryQuery,
  HistoryRows,
  MirrorOverviewRow,
  SignalAge,
  OverviewRow,
} from './types.ts';
import { toIsoOrNull } from './isoTime.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import type { StatusSummaries } from './statusSummary.ts';

type Json = Record<string, unknown>;

const parse = (text: string | null): Json | null => (text === null ? null : (JSON.parse(text) as Json));

function protocolFlags(text: string): Partial<Record<Protocol, boolean>> {
  const raw = JSON.parse(text) as Json;
  const flags: Partial<Record<Protocol, boolean>> = {};
  for (const p of PROTOCOLS) if (typeof raw[p] === 'boolean') flags[p] = raw[p];
  return flags;
}

// Histories are returned oldest first; the limit keeps the newest rows (what a chart's right edge shows).
const DEFAULT_HISTORY_LIMIT = 10_000;

/** The read side the UI, CLI and facade use. */
export class ReadQueries {
  constructor(
    private readonly db: Database,
    private readonly domains: DomainsStore,
    private readonly syncStates: SyncStateStore,
    private readonly alerts: AlertStore,
    private readonly summaries: StatusSummaries,
    /** The extra signals of the registry the mirror was opened with (the Summary tab's 'Other checks'). */
    private readonly extras: ExtraSignals,
  ) {}

  /**
   * The newest row of `table` (by `column`) per domain passing `filter`, keyed by domain pk. The primary key
   * (domain_id, column) finds each domain's newest row with one index seek, so the cost follows the number
   * of domains, not the length of their history; only `columns` are read (raw_json stays on disk). CROSS JOIN
   * keeps that order: without an account filter SQLite's planner otherwise scans every row of the history
   * (365 days × 1,000 domains: over a second) and runs the subquery for each.
   */
  private newestPerDomain<Row extends { domain_id: number }>(
    table: 'health_snapshots' | 'security_scores',
    column: 'scanned_at' | 'computed_at',
    columns: readonly (keyof Row & string)[],
    filter: string,
    args: number[],
  ): Map<number, Row> {
    const rows = prepared(
      this.db,
      `SELECT ${columns.map((c) => `t.${c}`).join(', ')} FROM domains d CROSS JOIN ${table} t
         ON t.domain_id = d.id AND t.${column} = (SELECT max(${column}) FROM ${table} WHERE domain_id = d.id)
         WHERE 1 ${filter}`,
    ).all(...args) as Row[];
    return new Map(rows.map((r) => [r.domain_id, r]));
  }

  /** See Mirror.overview. */
  overview(accountId: number | undefined, now: number, includeRemoved = false): MirrorOverviewRow[] {
    const states = new Map<number, StoredSyncState[]>();
    // Per account: each account's states are kept between calls (the engine reads them every tick).
    const accountIds =
      accountId === undefined
        ? (prepared(this.db, 'SELECT id FROM accounts').all() as { id: number }[]).map((a) => a.id)
        : [accountId];
    for (const s of accountIds.flatMap((id) => this.syncStates.list(id))) {
      if (s.domainPk === null) continue;
      const list = states.get(s.domainPk) ?? [];
      list.push(s);
      states.set(s.domainPk, list);
    }
    return this.rows(accountId, includeRemoved, (pk) => {
      const data: Partial<Record<SignalName, SignalAge>> = {};
      let lastError: MirrorOverviewRow['lastError'] = null;
      for (const st of states.get(pk) ?? []) {
        data[st.signal] = {
          lastSuccessAt: st.lastSuccessAt,
          ageSeconds:
            st.lastSuccessAt === null
              ? null
              : Math.max(0, Math.floor((now - Date.parse(st.lastSuccessAt)) / 1000)),
          lastError: st.lastError,
        };
        if (st.lastError && (!lastError || st.lastError.at > lastError.at))
          lastError = { ...st.lastError, signal: st.signal };
      }
      return { data, lastError };
    });
  }

  /**
   * See Mirror.windowOverview: the overview as the window shows it, each domain's data age as one time.
   * Its newest success and newest error come from two aggregate reads of sync_state instead of every
   * signal's state made into objects (40,000 of them at 5,000 domains: most of a cold call's time).
   */
  windowOverview(accountId: number | undefined): OverviewRow[] {
    const fresh = this.freshness(accountId);
    return this.rows(accountId, false, (pk) => fresh.get(pk) ?? { dataAt: null, lastError: null });
  }

  /** Each domain's newest success of any signal and its newest error (with its signal), by domain pk. */
  private freshness(
    accountId: number | undefined,
  ): Map<number, { dataAt: string | null; lastError: OverviewRow['lastError'] }> {
    const filter = accountId === undefined ? '' : 'AND account_id = ?';
    const args = accountId === undefined ? [] : [accountId];
    const out = new Map<number, { dataAt: string | null; lastError: OverviewRow['lastError'] }>();
    // The index sync_state_success (domain_id, last_success_at) answers this without reading the table.
    const newest = prepared(
      this.db,
      `SELECT domain_id, max(last_success_at) AS data_at FROM sync_state
         WHERE domain_id IS NOT NULL ${filter} GROUP BY domain_id`,
    ).all(...args) as { domain_id: number; data_at: string | null }[];
    for (const r of newest) out.set(r.domain_id, { dataAt: r.data_at, lastError: null });
    // Failing states are few; ties go to the first signal by name, as the overview's list order gives them.
    const failing = prepared(
      this.db,
      `SELECT domain_id, signal, error_code, error_status, error_message, error_request_id, error_retryable,
              error_missing_scope, error_at, last_attempt_at
         FROM sync_state WHERE domain_id IS NOT NULL AND error_code IS NOT NULL ${filter}
         ORDER BY domain_id, signal`,
    ).all(...args) as (Parameters<typeof syncErrorOf>[0] & { domain_id: number; signal: SignalName })[];
    for (const r of failing) {
      const error = syncErrorOf(r)!;
      const entry = out.get(r.domain_id) ?? { dataAt: null, lastError: null };
      if (!entry.lastError || error.at > entry.lastError.at) entry.lastError = { ...error, signal: r.signal };
      out.set(r.domain_id, entry);
    }
    return out;
  }

  /** The overview's rows; `fresh` adds how fresh each domain's data is (per signal or as one time). */
  private rows<Fresh extends { lastError: MirrorOverviewRow['lastError'] }>(
    accountId: number | undefined,
    includeRemoved: boolean,
    fresh: (pk: number) => Fresh,
  ): (Omit<MirrorOverviewRow, 'data' | 'lastError'> & Fresh)[] {
    const filter = accountId === undefined ? '' : 'AND d.account_id = ?';
    const args = accountId === undefined ? [] : [accountId];
    const domains = prepared(
      this.db,
      `SELECT d.id AS pk, d.account_id, a.label, d.remote_id, d.fqdn, d.removed_at,
              json_extract(d.raw_json, '$.group_id') AS group_id,
              json_extract(d.raw_json, '$.group_name') AS group_name,
              json_extract(d.raw_json, '$.status') AS status
         FROM domains d
         JOIN accounts a ON a.id = d.account_id
         WHERE ${includeRemoved ? '1' : 'd.removed_at IS NULL'} ${filter} ORDER BY a.label, d.fqdn`,
    ).all(...args) as {
      pk: number;
      account_id: number;
      label: string;
      remote_id: number;
      fqdn: string;
      removed_at: string | null;
      group_id: number | null;
      group_name: string | null;
      status: string | null;
    }[];
    const health = this.newestPerDomain<{
      domain_id: number;
      protocols_json: string;
      protocols_passing: number | null;
      total_protocols: number | null;
      result: string | null;
      dmarc_record: string | null;
      scanned_at: string;
    }>(
      'health_snapshots',
      'scanned_at',
      [
        'domain_id',
        'protocols_json',
        'protocols_passing',
        'total_protocols',
        'result',
        'dmarc_record',
        'scanned_at',
      ],
      filter,
      args,
    );
    const scores = this.newestPerDomain<{
      domain_id: number;
      score: number;
      max_score: number | null;
      interpretation: string | null;
      computed_at: string;
    }>(
      'security_scores',
      'computed_at',
      ['domain_id', 'score', 'max_score', 'interpretation', 'computed_at'],
      filter,
      args,
    );
    const openCounts = this.alerts.openCounts();
    const statuses = this.summaries.read(
      domains.map((d) => d.pk),
      { accountId },
    );
    return domains.map((d) => {
      const h = health.get(d.pk);
      const s = scores.get(d.pk);
      return {
        accountId: d.account_id,
        accountLabel: d.label,
        domainId: d.remote_id,
        fqdn: d.fqdn,
        removedAt: d.removed_at,
        group:
          typeof d.group_id === 'number'
            ? { id: d.group_id, name: d.group_name ?? `Group ${d.group_id}` }
            : null,
        status: typeof d.status === 'string' ? d.status : null,
        health: h
          ? {
              protocols: protocolFlags(h.protocols_json),
              passing: h.protocols_passing,
              total: h.total_protocols,
              result: h.result,
              dmarcRecord: h.dmarc_record || null,
              scannedAt: h.scanned_at,
            }
          : null,
        score: s
          ? {
              score: s.score,
              maxScore: s.max_score,
              interpretation: s.interpretation,
              computedAt: s.computed_at,
            }
          : null,
        openAlerts: openCounts.get(d.pk) ?? 0,
        posture: statuses.get(d.pk)!,
        ...fresh(d.pk),
      };
    });
  }

  /** See Mirror.domainDetail. */
  domainDetail(accountId: number, domainId: number, now: string): DomainDetail | null {
    const domain = this.domains.find(accountId, domainId);
    if (!domain) return null;
    const pk = domain.pk;
    const one = (sql: string) => prepared(this.db, sql).get(pk) as Json | undefined;
    const health = one(
      'SELECT raw_json FROM health_snapshots WHERE domain_id = ? ORDER BY scanned_at DESC LIMIT 1',
    );
    const score = one(
      'SELECT raw_json FROM security_scores WHERE domain_id = ? ORDER BY computed_at DESC LIMIT 1',
    );
    const byProtocol = (table: string) =>
      Object.fromEntries(
        (
          prepared(
            this.db,
            `SELECT protocol, raw_json FROM ${table} WHERE domain_id = ? ORDER BY protocol`,
          ).all(pk) as {
            protocol: string;
            raw_json: string;
          }[]
        ).map((r) => [r.protocol, JSON.parse(r.raw_json) as Json]),
      );
    const tls = one(
      'SELECT config_json, failures_json, fetched_at FROM tls_rpt_summaries WHERE domain_id = ?',
    );
    const dashboard = one(
      'SELECT raw_json FROM dashboard_cache WHERE domain_id = ? ORDER BY fetched_at DESC LIMIT 1',
    );
    return {
      domain: publicDomain(domain),
      health: health ? parse(health.raw_json as string) : null,
      score: score ? parse(score.raw_json as string) : null,
      dnsCurrent: byProtocol('dns_current'),
      dnsSummary: byProtocol('dns_timeline_summary'),
      failedSources: this.latestSources(pk, 'failed'),
      sendingServices: this.latestSources(pk, 'sending'),
      tlsRpt: tls
        ? {
            config: parse(tls.config_json as string | null),
            failures: parse(tls.failures_json as string | null),
            fetchedAt: tls.fetched_at as string,
          }
        : null,
      dashboardCache: dashboard ? parse(dashboard.raw_json as string) : null,
      extraSignals: extraSignalRows(this.db, pk, this.extras),
      syncStates: this.syncStates.listForDomain(accountId, pk).map(publicSyncState),
      openAlerts: this.alerts.list({ accountId, domainId, open: true, limit: 1000 }),
      muted: this.alerts.muteOf(pk, now),
      posture: this.summaries.deriveOne(pk),
    };
  }

  private latestSources(pk: number, kind: 'failed' | 'sending'): DomainDetail['failedSources'] {
    const win = prepared(
      this.db,
      `SELECT window_start, window_end, fetched_at FROM source_windows WHERE domain_id = ? AND kind = ?
         ORDER BY fetched_at DESC LIMIT 1`,
    ).get(pk, kind) as { window_start: string; window_end: string; fetched_at: string } | undefined;
    if (!win) return null;
    const sources = (
      prepared(
        this.db,
        `SELECT raw_json FROM source_entries WHERE domain_id = ? AND kind = ? AND window_start = ? AND window_end = ?
           ORDER BY position`,
      ).all(pk, kind, win.window_start, win.window_end) as { raw_json: string }[]
    ).map((r) => JSON.parse(r.raw_json) as Json);
    return {
      window: win.window_start || win.window_end ? { start: win.window_start, end: win.window_end } : null,
      fetchedAt: win.fetched_at,
      sources,
    };
  }

  /** See Mirror.history. */
  history<K extends HistoryKind>(kind: K, query: HistoryQuery): HistoryRows[K][] {
    const domain = this.domains.find(query.accountId, query.domainId);
    if (!domain) return [];
    // Mail volume is keyed by calendar date; comparing its date with an ISO instant's date part is exact.
    const since = toIsoOrNull(query.since);
    const until = toIsoOrNull(query.until);
    const dateBound = (iso: string | null) =>
      iso === null ? null : kind === 'mail_volume' ? iso.slice(0, 10) : iso;
    const params = {
      pk: domain.pk,
      since: dateBound(since),
      until: dateBound(until),
      limit: Math.max(1, Math.min(query.limit ?? DEFAULT_HISTORY_LIMIT, DEFAULT_HISTORY_LIMIT)),
    };
    const range = (col: string) =>
      `(@since IS NULL OR ${col} >= @since) AND (@until IS NULL OR ${col} <= @until)`;
    const newestFirst = (sql: string) => (prepared(this.db, sql).all(params) as Json[]).reverse();
    const rows: Record<HistoryKind, () => unknown[]> = {
      health: () =>
        newestFirst(
          `SELECT * FROM health_snapshots WHERE domain_id = @pk AND ${range('scanned_at')}
           ORDER BY scanned_at DESC LIMIT @limit`,
        ).map((r): HistoryRows['health'] => ({
          at: r.scanned_at as string,
          result: r.result as string | null,
          protocols: protocolFlags(r.protocols_json as string),
          passing: r.protocols_passing as number | null,
          total: r.total_protocols as number | null,
        })),
      score: () =>
        newestFirst(
          `SELECT * FROM (
             SELECT computed_at AS at, score, 'measured' AS kind FROM security_scores
               WHERE domain_id = @pk AND json_extract(raw_json, '$.derived_score') IS NULL
             UNION ALL
             SELECT scanned_at AS at, derived_score AS score, 'derived' AS kind FROM score_history WHERE domain_id = @pk)
           WHERE ${range('at')} ORDER BY at DESC, kind DESC LIMIT @limit`,
        ).map((r): HistoryRows['score'] => ({
          at: r.at as string,
          score: r.score as number,
          kind: r.kind as HistoryRows['score']['kind'],
        })),
      mail_volume: () =>
        newestFirst(
          `SELECT * FROM mail_volume_days WHERE domain_id = @pk AND ${range('date')} ORDER BY date DESC LIMIT @limit`,
        ).map((r): HistoryRows['mail_volume'] => ({
          date: r.date as string,
          total: r.total as number | null,
          delivered: r.delivered as number | null,
          quarantined: r.quarantined as number | null,
          rejected: r.rejected as number | null,
          dmarcPass: r.dmarc_pass as number | null,
          dmarcFail: r.dmarc_fail as number | null,
        })),
      dns_events: () =>
        newestFirst(
          `SELECT * FROM dns_events WHERE domain_id = @pk AND ${range('occurred_at')}
           ORDER BY occurred_at DESC, remote_id DESC LIMIT @limit`,
        ).map((r): HistoryRows['dns_events'] => ({
          eventId: r.remote_id as number,
          recordType: r.record_type as string,
          action: r.action as string,
          recordValue: r.record_value as string | null,
          statusBefore: r.status_before as string | null,
          statusAfter: r.status_after as string | null,
          occurredAt: r.occurred_at as string,
        })),
    };
    return rows[kind]() as HistoryRows[K][];
  }
}
