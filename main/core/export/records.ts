import type { Alert, MirrorOverviewRow } from '../mirror/types.ts';

/** What `authwatch export` and the app's Export write: one flat record per domain or alert. */

/** Columns of the export, in order. */
export const EXPORT_COLUMNS = [
  'account',
  'domain_id',
  'fqdn',
  'status',
  'status_words',
  'status_reasons',
  'status_from',
  'status_at',
  'protocols',
  'dmarc_policy',
  'health_result',
  'protocols_passing',
  'total_protocols',
  'dmarc',
  'spf',
  'mta_sts',
  'tls_rpt',
  'bimi',
  'scanned_at',
  'score',
  'max_score',
  'score_interpretation',
  'open_alerts',
  'last_error',
  'removed_at',
] as const;

/** An overview row; removedAt is there when the overview was asked to include removed domains. */
type ExportedRow = Omit<MirrorOverviewRow, 'removedAt'> & { removedAt?: string | null };
/** An alert; why and when it ended are there when it comes from the mirror. */
type ExportedAlert = Omit<Alert, 'endReason' | 'endedAt'> & Partial<Pick<Alert, 'endReason' | 'endedAt'>>;

/**
 * One domain's posture as a flat record. The status columns and the five protocol columns are the one
 * status model's (passing | failing | not_set_up | unknown, the verdict in words and where its newest
 * evidence came from); health_result is the service's own label, kept as data, not as the verdict.
 */
export function exportRecord(row: ExportedRow): Record<(typeof EXPORT_COLUMNS)[number], unknown> {
  const s = row.posture;
  const p = s.protocols;
  return {
    account: row.accountLabel,
    domain_id: row.domainId,
    fqdn: row.fqdn,
    status: s.verdict.level,
    status_words: s.verdict.words,
    status_reasons: s.verdict.reasons.join('; '),
    status_from: s.newest?.label ?? null,
    status_at: s.newest?.at ?? null,
    protocols: s.protocolsText,
    dmarc_policy: s.dmarc ? `p=${s.dmarc.policy}${s.dmarc.pct < 100 ? `; pct=${s.dmarc.pct}` : ''}` : null,
    health_result: row.health?.result ?? null,
    protocols_passing: row.health?.passing ?? null,
    total_protocols: row.health?.total ?? null,
    dmarc: p.dmarc.state,
    spf: p.spf.state,
    mta_sts: p.mta_sts.state,
    tls_rpt: p.tls_rpt.state,
    bimi: p.bimi.state,
    scanned_at: row.health?.scannedAt ?? null,
    score: row.score?.score ?? null,
    max_score: row.score?.maxScore ?? null,
    score_interpretation: row.score?.interpretation ?? null,
    open_alerts: row.openAlerts,
    last_error: row.lastError ? `${row.lastError.signal}: ${row.lastError.code}` : null,
    // A domain that left the account's list: its last known posture, kept for the record.
    removed_at: row.removedAt ?? null,
  };
}

/** The JSON shape `authwatch alerts --json` and the app's alert export write for each alert (snake_case like the interface). */
export function alertJson(alert: ExportedAlert, accountLabel: string) {
  return {
    id: alert.id,
    account: accountLabel,
    rule: alert.rule,
    severity: alert.severity,
    domain: alert.fqdn,
    domain_id: alert.domainId,
    title: alert.title,
    body: alert.body,
    first_seen: alert.firstSeenAt,
    last_seen: alert.lastSeenAt,
    resolved_at: alert.resolvedAt,
    acknowledged_at: alert.acknowledgedAt,
    // cause_ended | domain_removed | acknowledged | notice, or null while open (see AlertEndReason).
    end_reason: alert.endReason ?? null,
    ended_at: alert.endedAt ?? null,
  };
}

/** Columns of the alert export (CSV), in the order of alertJson. */
export const ALERT_EXPORT_COLUMNS = [
  'id',
  'account',
  'rule',
  'severity',
  'domain',
  'domain_id',
  'title',
  'body',
  'first_seen',
  'last_seen',
  'resolved_at',
  'acknowledged_at',
  'end_reason',
  'ended_at',
] as const;
