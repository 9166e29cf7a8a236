import type { Database } from 'better-sqlite3';
import type { DomainStatusView as DomainStatus } from '../../../shared/bridge/results.ts';
import type { Protocol } from '../signals/primitives.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import { statusRows, type StatusRows } from './statusRows.ts';
import { statusFacts, type StatusFacts } from './statusFacts.ts';

/**
 * The status model (main/core/status/statusModel.ts), passed in: the mirror stores each domain's status and
 * queries the rows it is derived from; deriving it is the status folder's, above the mirror in core's order.
 */
export interface StatusModel {
  /** The version of what `derive` says (STATUS_MODEL_VERSION): a status stored by another is derived again. */
  version: number;
  /** One domain's status from its rows (undefined: the domain has none). */
  derive(rows: StatusRows | undefined): DomainStatus;
  /** The newest observation of `protocol` among the rows (a pending change's baseline), or null. */
  observedAt(rows: StatusRows | undefined, protocol: Protocol): string | null;
}

/**
 * Each domain's status as the status model derived it, kept by the mirror's writes so the overview reads
 * 1,000 rows instead of deriving 1,000 statuses. What keeps it true:
 *   - triggers (migration v12) mark a domain in `status_dirty` whenever a row the model reads changes —
 *     health snapshots, DNS events, the service's DNS status, the DNS watch, the domain's open alerts,
 *     pending changes — in the transaction that changes it, whoever writes it;
 *   - the mirror's writes derive the marked domains again before they commit (flush), so a tick's commit
 *     carries its statuses with it;
 *   - a reader never trusts a marked domain, a missing row or one derived by another model version: it
 *     derives those itself (read), so a status never lags its evidence even between a write and its flush.
 */
export class StatusSummaries {
  private withTemp = false;
  /** SQL over a status_facts (or domain_status) row `s`: derived by this model, not marked since. */
  readonly currentFacts: string;

  constructor(
    private readonly db: Database,
    private readonly model: StatusModel,
  ) {
    this.currentFacts = `(${currentSql(model.version)})`;
  }

  /**
   * When the stored statuses were derived by another model version (a mirror from before the summaries, or
   * from code whose model said things differently), marks every domain; then derives every marked domain.
   * Returns how many were derived. A mirror already in step costs two small reads.
   */
  refreshStale(): number {
    const version = this.model.version;
    const stored = prepared(this.db, 'SELECT version FROM status_model WHERE id = 1').get() as
      { version: number } | undefined;
    if (stored?.version !== version) {
      prepared(this.db, 'INSERT OR IGNORE INTO status_dirty (domain_id) SELECT id FROM domains').run();
      prepared(this.db, 'INSERT OR REPLACE INTO status_model (id, version) VALUES (1, ?)').run(version);
    }
    return this.flush();
  }

  /** True when some domain waits for its status to be derived again (or the model version changed). */
  stale(): boolean {
    const stored = prepared(this.db, 'SELECT version FROM status_model WHERE id = 1').get() as
      { version: number } | undefined;
    return (
      stored?.version !== this.model.version ||
      !!prepared(this.db, 'SELECT 1 FROM status_dirty LIMIT 1').get()
    );
  }

  /** Derives the status of every marked domain and stores it; returns how many were derived. */
  flush(): number {
    const version = this.model.version;
    const marked = (
      prepared(this.db, 'SELECT domain_id FROM status_dirty').all() as { domain_id: number }[]
    ).map((r) => r.domain_id);
    if (marked.length === 0) return 0;
    const statuses = this.derive(marked);
    const upsert = prepared(
      this.db,
      `INSERT INTO domain_status (domain_id, model, status_json) VALUES (?, ?, ?)
         ON CONFLICT (domain_id) DO UPDATE SET model = excluded.model, status_json = excluded.status_json`,
    );
    const upsertFacts = prepared(
      this.db,
      `INSERT OR REPLACE INTO status_facts (domain_id, model, verdict_level, dmarc_state, dmarc_pct, failing,
         not_set_up, required_passing, optional_passing)
       VALUES (@pk, @model, @verdictLevel, @dmarcState, @dmarcPct, @failing, @notSetUp, @requiredPassing,
         @optionalPassing)`,
    );
    const known = prepared(this.db, 'SELECT 1 FROM domains WHERE id = ?');
    for (const [pk, status] of statuses) {
      // A domain removed in the same transaction leaves only its mark.
      if (!known.get(pk)) continue;
      upsert.run(pk, version, JSON.stringify(status));
      upsertFacts.run({ pk, model: version, ...storedFacts(statusFacts(status)) });
    }
    prepared(this.db, 'DELETE FROM status_dirty').run();
    return marked.length;
  }

  /**
   * The status of each domain in `pks`: the stored summary where it is current, derived now where it is
   * not (marked, missing, another model's).
   */
  read(pks: readonly number[], scope: { accountId: number | undefined }): Map<number, DomainStatus> {
    const filter = scope.accountId === undefined ? '' : 'AND d.account_id = ?';
    const rows = prepared(
      this.db,
      `SELECT s.domain_id, s.status_json FROM domains d JOIN domain_status s ON s.domain_id = d.id
         WHERE ${this.currentFacts} ${filter}`,
    ).all(...(scope.accountId === undefined ? [] : [scope.accountId])) as {
      domain_id: number;
      status_json: string;
    }[];
    return this.complete(pks, rows, scope);
  }

  /** The status of each of a few domains (a page of the overview): only their stored JSON is read. */
  readSome(pks: readonly number[]): Map<number, DomainStatus> {
    const one = prepared(
      this.db,
      `SELECT s.domain_id, s.status_json FROM domain_status s WHERE s.domain_id = ? AND ${this.currentFacts}`,
    );
    const rows = pks.flatMap((pk) => (one.get(pk) ?? []) as { domain_id: number; status_json: string }[]);
    return this.complete(pks, rows, { accountId: undefined });
  }

  /**
   * The facts (what the overview filters, sorts and counts by) of every listed domain of the scope whose
   * stored status is not current (marked, missing, another model's), derived now and kept in this
   * connection's temporary table `status_facts_now` for the query that follows; a current status's facts
   * are its stored columns (currentFacts says which). Nothing is parsed for a current status.
   */
  deriveStaleFacts(accountId: number | undefined): void {
    if (!this.withTemp) {
      prepared(
        this.db,
        `CREATE TEMP TABLE IF NOT EXISTS status_facts_now (domain_id INTEGER PRIMARY KEY, verdict_level TEXT,
           dmarc_state TEXT, failing TEXT, not_set_up INTEGER, required_passing INTEGER, optional_passing INTEGER)`,
      ).run();
      this.withTemp = true;
    }
    prepared(this.db, 'DELETE FROM temp.status_facts_now').run();
    const stale = prepared(
      this.db,
      `SELECT d.id FROM domains d LEFT JOIN status_facts s ON s.domain_id = d.id
         WHERE d.removed_at IS NULL ${accountId === undefined ? '' : 'AND d.account_id = ?'}
           AND NOT ifnull(${this.currentFacts}, 0)`,
    )
      .pluck()
      .all(...(accountId === undefined ? [] : [accountId])) as number[];
    if (stale.length > 0) {
      const insert = prepared(
        this.db,
        `INSERT INTO temp.status_facts_now VALUES (@pk, @verdictLevel, @dmarcState, @failing, @notSetUp,
           @requiredPassing, @optionalPassing)`,
      );
      for (const [pk, status] of this.derive(stale, stale.length > BULK_FROM ? { accountId } : undefined)) {
        const { dmarcPct: _pct, ...facts } = storedFacts(statusFacts(status));
        insert.run({ pk, ...facts });
      }
    }
  }

  /** One domain's status derived now from its rows (the domain's page: never a stored one). */
  deriveOne(pk: number): DomainStatus {
    return this.model.derive(statusRows(this.db, { domainPk: pk }).get(pk));
  }

  /** The newest observation of `protocol` for the domain (a pending change's baseline), or null. */
  observedAt(pk: number, protocol: Protocol): string | null {
    return this.model.observedAt(statusRows(this.db, { domainPk: pk }).get(pk), protocol);
  }

  /** `rows` parsed, and the statuses of the `pks` they lack derived now. */
  private complete(
    pks: readonly number[],
    rows: readonly { domain_id: number; status_json: string }[],
    scope: { accountId: number | undefined },
  ): Map<number, DomainStatus> {
    const out = new Map<number, DomainStatus>();
    for (const r of rows) out.set(r.domain_id, JSON.parse(r.status_json) as DomainStatus);
    const missing = pks.filter((pk) => !out.has(pk));
    if (missing.length > 0) {
      const derived = this.derive(missing, missing.length > BULK_FROM ? scope : undefined);
      for (const [pk, status] of derived) out.set(pk, status);
    }
    return out;
  }

  /** Derives the statuses of `pks` from the evidence (the whole scope's in a few queries when many). */
  private derive(
    pks: readonly number[],
    scope: { accountId: number | undefined } | undefined = pks.length > BULK_FROM
      ? { accountId: undefined }
      : undefined,
  ): Map<number, DomainStatus> {
    const { model } = this;
    const out = new Map<number, DomainStatus>();
    const bulk = scope ? statusRows(this.db, scope) : null;
    for (const pk of pks) {
      out.set(pk, model.derive(bulk ? bulk.get(pk) : statusRows(this.db, { domainPk: pk }).get(pk)));
    }
    return out;
  }
}

// A stored status is current when the model that derived it is this code's and no write has marked it since.
const currentSql = (version: number) => `s.model = ${Math.trunc(version)}
  AND NOT EXISTS (SELECT 1 FROM status_dirty x WHERE x.domain_id = s.domain_id)`;

/** The facts as the columns hold them: the failing protocols as ",spf,dmarc," (none: ","). */
function storedFacts(f: StatusFacts) {
  return { ...f, failing: f.failing.length ? `,${f.failing.join(',')},` : ',', notSetUp: f.notSetUp ? 1 : 0 };
}

// Past this many domains, one pass over the scope's evidence (a handful of queries) is cheaper than
// seven queries per domain.
const BULK_FROM = 50;
