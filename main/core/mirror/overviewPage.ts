import type { Database } from 'better-sqlite3';
import {
  DMARC_RANK,
  DMARC_STATES,
  verdictRank,
  type DmarcState,
  type SortKey,
} from '../../../shared/bridge/overviewFilter.ts';
import type { OverviewPage, OverviewPageArgs, OverviewPageRow } from '../../../shared/bridge/overviewPage.ts';
import { VERDICT_LEVELS, type VerdictLevel } from '../../../shared/bridge/statusLevels.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import type { SignalName } from '../signals/catalog.ts';
import type { StatusSummaries } from './statusSummary.ts';
import { syncErrorOf } from './syncStateStore.ts';

/** The query of one screen of the overview (the bridge's arguments less nothing). */
export type OverviewPageQuery = OverviewPageArgs;

/** One listed domain of the page, as the SQL reads it. */
interface PageDomain {
  pk: number;
  account_id: number;
  label: string;
  remote_id: number;
  fqdn: string;
  group_id: number | null;
  group_name: string | null;
  score: number | null;
  open_alerts: number;
}

const NO_GROUP = 'No group';
// One collator for the group names (few): the rows' order is SQLite's (see ORDER_BY).
const collator = new Intl.Collator();

/**
 * Every listed domain of the scope with what the table filters, sorts and counts it by, read once per call
 * into this connection's temporary table `overview_listed`: name, group, parked, newest score (one seek of
 * the score table's primary key per domain), open alerts, and the status facts kept beside each stored
 * status. The counts and the page are then read from it: only the rows of the page become JavaScript
 * objects, 5,000 domains are counted and ordered inside SQLite.
 */
const LISTED_COLUMNS = `pk, account_id, label, remote_id, fqdn, group_id, group_label, parked, score, open_alerts,
  data_at, verdict_level, dmarc_state, failing, not_set_up, required_passing, optional_passing`;
// Each domain's newest success of any signal (the Data column), only to sort by it: one pass over sync_state
// (a correlated seek per domain cannot use the index's ifnull(domain_id, 0) part).
const NEWEST_SUCCESS = `LEFT JOIN (SELECT domain_id, max(last_success_at) AS data_at FROM sync_state
    WHERE domain_id IS NOT NULL GROUP BY domain_id) y ON y.domain_id = d.id`;
const FILL_LISTED = (withDataAt: boolean, currentFacts: string) => `
  WITH open AS (SELECT domain_id, count(*) AS n FROM alerts WHERE resolved_at IS NULL GROUP BY domain_id),
  base AS MATERIALIZED (
    SELECT d.id AS pk, d.account_id, a.label, d.remote_id, d.fqdn,
           d.raw_json ->> '$.group_id' AS group_id, d.raw_json ->> '$.group_name' AS group_name,
           d.raw_json ->> '$.status' AS status,
           (SELECT score FROM security_scores x WHERE x.domain_id = d.id ORDER BY computed_at DESC LIMIT 1)
             AS score,
           ifnull(o.n, 0) AS open_alerts,
           ${withDataAt ? 'y.data_at' : 'NULL'} AS data_at,
           -- The stored facts where the status is current, else those derived now (status_facts_now).
           iif(s.current, s.verdict_level, t.verdict_level) AS verdict_level,
           iif(s.current, s.dmarc_state, t.dmarc_state) AS dmarc_state,
           iif(s.current, s.failing, t.failing) AS failing,
           iif(s.current, s.not_set_up, t.not_set_up) AS not_set_up,
           iif(s.current, s.required_passing, t.required_passing) AS required_passing,
           iif(s.current, s.optional_passing, t.optional_passing) AS optional_passing
      FROM domains d JOIN accounts a ON a.id = d.account_id
      LEFT JOIN (SELECT *, ${currentFacts} AS current FROM status_facts s) s ON s.domain_id = d.id
      LEFT JOIN temp.status_facts_now t ON t.domain_id = d.id
      LEFT JOIN open o ON o.domain_id = d.id
      ${withDataAt ? NEWEST_SUCCESS : ''}
      WHERE d.removed_at IS NULL AND (@account IS NULL OR d.account_id = @account))
  INSERT INTO temp.overview_listed (${LISTED_COLUMNS})
  SELECT pk, account_id, label, remote_id, fqdn, group_id,
         CASE WHEN typeof(group_id) = 'integer' THEN coalesce(group_name, 'Group ' || group_id) END,
         -- Parked (no mail by design; hidden by default): by status or by a group named so (LIKE is case-blind).
         (status IS 'parked' OR (typeof(group_id) = 'integer'
                                 AND coalesce(group_name, 'Group ' || group_id) LIKE '%parked%')),
         score, open_alerts, data_at, verdict_level, dmarc_state, failing, not_set_up, required_passing,
         optional_passing
    FROM base`;

/**
 * Fills temp.overview_listed with the scope's listed domains (see FILL_LISTED), unless it already holds
 * them: nothing was written to the database since it was filled, by this connection (total_changes) or
 * any other (data_version). A search keystroke or the next page then reads only the counts and its rows.
 */
function fillListed(
  db: Database,
  summaries: StatusSummaries,
  accountId: number | undefined,
  withDataAt: boolean,
): void {
  const key = `${accountId ?? '*'}:${withDataAt}:${db.pragma('data_version', { simple: true })}`;
  const changes = () => prepared(db, 'SELECT total_changes()').pluck().get() as number;
  const kept = filled.get(db);
  if (kept && kept.key === key && kept.changes === changes()) return;
  if (!kept)
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS overview_listed (${LISTED_COLUMNS.replace(/\s+/g, ' ')})`);
  summaries.deriveStaleFacts(accountId);
  prepared(db, 'DELETE FROM temp.overview_listed').run();
  prepared(db, FILL_LISTED(withDataAt, summaries.currentFacts)).run({ account: accountId ?? null });
  filled.set(db, { key, changes: changes() });
}
const filled = new WeakMap<Database, { key: string; changes: number }>();

/** The search and filters as one SQL test over `listed`; `visible` is the parked toggle alone. */
const VISIBLE = '(@showParked OR NOT parked)';
const MATCHES = `(${VISIBLE}
  AND (@needle = '' OR instr(authwatch_lower(fqdn || ' ' || ifnull(group_label, '') || ' ' || label), @needle) > 0)
  AND (NOT @alertsOnly OR open_alerts > 0)
  AND (@verdict = 'all' OR verdict_level = @verdict)
  AND (@dmarc = 'all' OR (@dmarc = 'enforced' AND dmarc_state IN ('reject', 'quarantine')) OR dmarc_state = @dmarc)
  AND (@failing = 'all' OR (@failing = 'any' AND failing <> ',') OR instr(failing, ',' || @failing || ',') > 0))`;

/** Each sort key as SQL (the ranks of shared/bridge/overviewFilter.ts); ties go to the name. */
const ORDER_BY: Record<SortKey, string> = {
  // Names compare by their bytes: for domain names (lower-case ASCII letters, digits, '-' and '.') the
  // order the window's collator gives.
  fqdn: 'fqdn',
  dmarc: `CASE dmarc_state ${Object.entries(DMARC_RANK)
    .map(([state, rank]) => `WHEN '${state}' THEN ${rank}`)
    .join(' ')} END`,
  score: 'ifnull(score, -1)',
  // Required protocols passing weigh more than optional ones set up.
  protocols: 'required_passing * 10 + optional_passing',
  result: `CASE verdict_level ${VERDICT_LEVELS.map((level) => `WHEN '${level}' THEN ${verdictRank(level)}`).join(' ')} END`,
  alerts: 'open_alerts',
  age: "ifnull(data_at, '')",
};

/**
 * One screen of the window's overview: the headline, the counts and the groups over every listed domain
 * of the scope, and the rows of the page asked for, searched, filtered and sorted in SQL over the status
 * facts kept beside each stored status; only those rows read their stored status (the chips, the
 * verdict, their hover texts) and their sync states. The first screen of 5,000 domains costs the ~30 rows
 * it shows and a few aggregate reads.
 */
export function overviewPage(
  db: Database,
  deps: { summaries: StatusSummaries },
  q: OverviewPageQuery,
): OverviewPage {
  registerLower(db);
  fillListed(db, deps.summaries, q.accountId, q.sort === 'age');
  const params = {
    showParked: q.showParked ? 1 : 0,
    needle: q.search.trim().toLowerCase(),
    alertsOnly: q.alertsOnly ? 1 : 0,
    verdict: q.verdict,
    dmarc: q.dmarc,
    failing: q.failing,
  };
  const v = (test: string) => `sum(${VISIBLE} AND ${test})`;
  const counts = prepared(
    db,
    `SELECT count(*) AS domains, ifnull(sum(parked), 0) AS parked, ifnull(sum(open_alerts), 0) AS open_all,
            ifnull(sum(${VISIBLE}), 0) AS total, ifnull(sum(${MATCHES}), 0) AS shown,
            ${DMARC_STATES.map((st) => `ifnull(${v(`dmarc_state = '${st}'`)}, 0) AS policy_${st}`).join(', ')},
            ${VERDICT_LEVELS.map((l) => `ifnull(${v(`verdict_level = '${l}'`)}, 0) AS verdict_${l}`).join(', ')},
            avg(CASE WHEN ${VISIBLE} THEN score END) AS average_score,
            ifnull(sum(CASE WHEN ${VISIBLE} THEN open_alerts END), 0) AS alerts,
            ifnull(${v("failing <> ','")}, 0) AS failing_any, ifnull(${v('not_set_up')}, 0) AS not_set_up
       FROM temp.overview_listed`,
  ).get(params) as Record<string, number | null>;
  const n = (key: string) => counts[key] ?? 0;

  let groups: OverviewPage['groups'] = null;
  let groupOrder = '';
  if (q.groupByGroup) {
    const found = prepared(
      db,
      `SELECT ifnull(group_label, '${NO_GROUP}') AS name, count(*) AS count FROM temp.overview_listed
         WHERE ${MATCHES} GROUP BY 1`,
    ).all(params) as { name: string; count: number }[];
    groups = found.sort((a, b) =>
      a.name === NO_GROUP ? 1 : b.name === NO_GROUP ? -1 : collator.compare(a.name, b.name),
    );
    // The groups' order is the collator's: SQLite takes it as each name's place in that list.
    groupOrder = `(SELECT key FROM json_each(@groups) WHERE value = ifnull(group_label, '${NO_GROUP}')), `;
  }
  const rows = prepared(
    db,
    `SELECT pk, account_id, label, remote_id, fqdn, group_id, group_label AS group_name, score, open_alerts
       FROM temp.overview_listed WHERE ${MATCHES}
       ORDER BY ${groupOrder}${ORDER_BY[q.sort]} ${q.descending ? 'DESC' : 'ASC'}${q.sort === 'fqdn' ? '' : ', fqdn ASC'}
       LIMIT @limit OFFSET @offset`,
  ).all({
    ...params,
    ...(groups ? { groups: JSON.stringify(groups.map((g) => g.name)) } : {}),
    limit: q.limit,
    offset: q.offset,
  }) as PageDomain[];

  return {
    scope: { domains: n('domains'), parked: n('parked'), openAlerts: n('open_all') },
    headline: {
      total: n('total'),
      byPolicy: Object.fromEntries(DMARC_STATES.map((st) => [st, n(`policy_${st}`)])) as Record<
        DmarcState,
        number
      >,
      byVerdict: Object.fromEntries(VERDICT_LEVELS.map((l) => [l, n(`verdict_${l}`)])) as Record<
        VerdictLevel,
        number
      >,
      averageScore: counts.average_score ?? null,
      alerts: n('alerts'),
      failingAny: n('failing_any'),
      optionalNotSetUp: n('not_set_up'),
    },
    shown: n('shown'),
    groups,
    offset: q.offset,
    rows: pageRows(db, deps.summaries, rows),
  };
}

const withLower = new WeakSet<Database>();

/** The search folds case as JavaScript does (SQLite's lower() folds ASCII only). */
function registerLower(db: Database): void {
  if (withLower.has(db)) return;
  db.function('authwatch_lower', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );
  withLower.add(db);
}

/** The page's rows: their stored statuses and their sync states, read for these domains only. */
function pageRows(db: Database, summaries: StatusSummaries, page: readonly PageDomain[]): OverviewPageRow[] {
  const statuses = summaries.readSome(page.map((d) => d.pk));
  // The unique index sync_state_key (account_id, ifnull(domain_id, 0), signal) finds a domain's states.
  const states = prepared(
    db,
    `SELECT signal, last_success_at, error_code, error_status, error_message, error_request_id,
            error_retryable, error_missing_scope, error_at, last_attempt_at
       FROM sync_state WHERE account_id = ? AND ifnull(domain_id, 0) = ? ORDER BY signal`,
  );
  return page.map((d) => {
    let dataAt: string | null = null;
    let lastError: OverviewPageRow['lastError'] = null;
    for (const s of states.all(d.account_id, d.pk) as (Parameters<typeof syncErrorOf>[0] & {
      signal: SignalName;
      last_success_at: string | null;
    })[]) {
      if (s.last_success_at !== null && (dataAt === null || s.last_success_at > dataAt))
        dataAt = s.last_success_at;
      const error = syncErrorOf(s);
      // Ties go to the first signal by name, as the full overview's do.
      if (error && (!lastError || error.at > lastError.at)) lastError = { ...error, signal: s.signal };
    }
    return {
      accountId: d.account_id,
      accountLabel: d.label,
      domainId: d.remote_id,
      fqdn: d.fqdn,
      group: typeof d.group_id === 'number' ? { id: d.group_id, name: d.group_name! } : null,
      score: d.score,
      openAlerts: d.open_alerts,
      posture: statuses.get(d.pk)!,
      dataAt,
      lastError,
    };
  });
}
