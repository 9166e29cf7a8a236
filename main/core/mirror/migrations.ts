import type { Database } from 'better-sqlite3';
import { MirrorError } from './mirrorError.ts';

/** One schema step: after `up`, the database is at `version` (stored in PRAGMA user_version). */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

// Timestamps are ISO 8601 UTC text (they sort as text). Every per-domain table cascades from domains,
// which cascades from accounts: removing an account removes its mirror. There is deliberately no column
// for a token or any other secret.
const V1_INITIAL = `
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  label TEXT NOT NULL UNIQUE,
  base_url TEXT NOT NULL,
  created_at TEXT NOT NULL,
  paused_reason TEXT
);

CREATE TABLE domains (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  remote_id INTEGER NOT NULL,
  fqdn TEXT NOT NULL,
  raw_json TEXT,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  removed_at TEXT,
  UNIQUE (account_id, remote_id)
);

CREATE TABLE health_snapshots (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  scanned_at TEXT NOT NULL,
  remote_id INTEGER,
  source TEXT,
  result TEXT,
  mail_provider TEXT,
  protocols_json TEXT NOT NULL,
  protocols_passing INTEGER,
  total_protocols INTEGER,
  dmarc_record TEXT,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, scanned_at)
);

CREATE TABLE security_scores (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  computed_at TEXT NOT NULL,
  score REAL NOT NULL,
  max_score REAL,
  interpretation TEXT,
  message TEXT,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, computed_at)
);

CREATE TABLE score_history (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  scanned_at TEXT NOT NULL,
  derived_score REAL NOT NULL,
  protocols_passing INTEGER,
  total_protocols INTEGER,
  result TEXT,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, scanned_at)
);

-- One row per fetch of failed-sources / sending-services for a window ('' = the default window), so an
-- empty answer is remembered as empty.
CREATE TABLE source_windows (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('failed', 'sending')),
  window_start TEXT NOT NULL,
  window_end TEXT NOT NULL,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, kind, window_start, window_end)
);

CREATE TABLE source_entries (
  domain_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  window_start TEXT NOT NULL,
  window_end TEXT NOT NULL,
  position INTEGER NOT NULL,
  source_name TEXT NOT NULL,
  total_count INTEGER,
  dmarc_pass INTEGER,
  dmarc_fail INTEGER,
  compliance REAL,
  status TEXT,
  is_registered_threat INTEGER NOT NULL DEFAULT 0,
  raw_json TEXT NOT NULL,
  PRIMARY KEY (domain_id, kind, window_start, window_end, position),
  FOREIGN KEY (domain_id, kind, window_start, window_end)
    REFERENCES source_windows (domain_id, kind, window_start, window_end) ON DELETE CASCADE
);

-- Registered threats ever seen per domain: a threat is announced once per source, whatever the window.
CREATE TABLE threat_sources_seen (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  source_name TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, source_name)
);

CREATE TABLE mail_volume_days (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  date TEXT NOT NULL,
  total INTEGER,
  delivered INTEGER,
  quarantined INTEGER,
  rejected INTEGER,
  dmarc_pass INTEGER,
  dmarc_fail INTEGER,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, date)
);

CREATE TABLE dns_events (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  remote_id INTEGER NOT NULL,
  record_type TEXT NOT NULL,
  action TEXT NOT NULL,
  record_value TEXT,
  status_before TEXT,
  status_after TEXT,
  occurred_at TEXT NOT NULL,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, remote_id)
);
CREATE INDEX dns_events_by_type_time ON dns_events (domain_id, record_type, occurred_at);

CREATE TABLE dns_timeline_summary (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  protocol TEXT NOT NULL,
  current_status TEXT,
  last_connected TEXT,
  last_disconnected TEXT,
  connection_count INTEGER,
  disconnection_count INTEGER,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, protocol)
);

CREATE TABLE dns_current (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  protocol TEXT NOT NULL,
  current_status TEXT,
  verified INTEGER,
  status TEXT,
  last_connected TEXT,
  last_disconnected TEXT,
  record_value TEXT,
  lookup_count INTEGER,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, protocol)
);

CREATE TABLE dns_record_history (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  record_type TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  record_value TEXT,
  lookup_count INTEGER,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL
);
CREATE UNIQUE INDEX dns_record_history_row
  ON dns_record_history (domain_id, record_type, occurred_at, ifnull(record_value, ''));

CREATE TABLE dns_snapshots (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  record_type TEXT NOT NULL,
  remote_id INTEGER NOT NULL,
  record_value TEXT,
  occurred_at TEXT NOT NULL,
  lookup_count INTEGER,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, record_type, remote_id)
);

CREATE TABLE tls_rpt_summaries (
  domain_id INTEGER PRIMARY KEY REFERENCES domains(id) ON DELETE CASCADE,
  config_json TEXT,
  failures_json TEXT,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL
);

CREATE TABLE dashboard_cache (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  window_start TEXT NOT NULL,
  window_end TEXT NOT NULL,
  cached INTEGER NOT NULL,
  cached_at TEXT,
  data_json TEXT,
  raw_json TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (domain_id, window_start, window_end)
);

CREATE TABLE sync_state (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
  signal TEXT NOT NULL,
  last_success_at TEXT,
  last_attempt_at TEXT,
  error_code TEXT,
  error_status INTEGER,
  error_message TEXT,
  error_request_id TEXT,
  error_retryable INTEGER,
  error_missing_scope TEXT,
  error_at TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  next_due_at TEXT,
  period_seconds INTEGER NOT NULL
);
-- NULL domain = account-level signal; ifnull makes (account, NULL, signal) unique too.
CREATE UNIQUE INDEX sync_state_key ON sync_state (account_id, ifnull(domain_id, 0), signal);

CREATE TABLE alerts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
  fqdn TEXT,
  rule TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('critical', 'warning', 'info')),
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  dedupe_key TEXT NOT NULL,
  details_json TEXT NOT NULL DEFAULT '{}',
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  resolved_at TEXT,
  acknowledged_at TEXT,
  delivered_at TEXT
);
-- One open episode per dedupe key: the database itself refuses a duplicate notification.
CREATE UNIQUE INDEX alerts_open_episode ON alerts (dedupe_key) WHERE resolved_at IS NULL;
CREATE INDEX alerts_by_account ON alerts (account_id, first_seen_at);

CREATE TABLE alert_deliveries (
  id INTEGER PRIMARY KEY,
  alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  delivered_at TEXT NOT NULL
);
CREATE INDEX alert_deliveries_by_alert ON alert_deliveries (alert_id);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value_json TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

// v2: snooze an alert, mute a domain, and remember that an alert was raised while muted.
const V2_SNOOZE_AND_MUTE = `
ALTER TABLE alerts ADD COLUMN snoozed_until TEXT;
ALTER TABLE alerts ADD COLUMN suppressed TEXT CHECK (suppressed IS NULL OR suppressed = 'muted');

CREATE TABLE domain_mutes (
  domain_id INTEGER PRIMARY KEY REFERENCES domains(id) ON DELETE CASCADE,
  muted_at TEXT NOT NULL,
  until TEXT
);
`;

// v3: panels the renderer reads on demand (BIMI readiness, TLS-RPT breakdowns, the audit log …), kept for
// offline review. Keyed by the request (panel, ids, query) within an account; no secret is ever a panel.
const V3_PANEL_CACHE = `
CREATE TABLE panel_cache (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  request_key TEXT NOT NULL,
  panel TEXT NOT NULL,
  domain_id INTEGER,
  fetched_at TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  PRIMARY KEY (account_id, request_key)
);
`;

// v4: why an alert ended. resolved_at keeps meaning "the cause ended" (evidence from the service); an alert
// of a domain that left the account's list stays unresolved and is marked domain_removed (a domain that
// returns continues it), and one the user acknowledged is marked acknowledged until its cause ends.
// Alerts the old code closed when their domain left the list are reopened as domain_removed, unless a
// newer episode of the same condition is open.
const V4_ALERT_END_REASON = `
ALTER TABLE alerts ADD COLUMN end_reason TEXT
  CHECK (end_reason IS NULL OR end_reason IN ('cause_ended', 'domain_removed', 'acknowledged', 'notice'));
ALTER TABLE alerts ADD COLUMN ended_at TEXT;
UPDATE alerts SET end_reason = 'cause_ended', ended_at = resolved_at WHERE resolved_at IS NOT NULL;
UPDATE alerts SET end_reason = 'notice'
  WHERE rule = 'protocol_restored' AND resolved_at IS NOT NULL AND resolved_at = first_seen_at;
UPDATE alerts SET end_reason = 'acknowledged', ended_at = acknowledged_at
  WHERE resolved_at IS NULL AND acknowledged_at IS NOT NULL;
UPDATE alerts SET end_reason = 'domain_removed', ended_at = resolved_at, resolved_at = NULL
  WHERE resolved_at IS NOT NULL AND rule <> 'protocol_restored'
    AND EXISTS (SELECT 1 FROM domains d WHERE d.id = alerts.domain_id AND d.removed_at = alerts.resolved_at)
    AND NOT EXISTS (SELECT 1 FROM alerts b WHERE b.dedupe_key = alerts.dedupe_key AND b.resolved_at IS NULL);
`;

// v5: delivery beyond the window. Channels hold no secret (passwords, signing secrets and token-bearing URLs
// live in the SecretStore, or are named by an environment variable); the outbox holds one row per alert
// event and channel, written in the alert's own transaction, so a crash between the alert and the send
// loses nothing. event_id is shared by the channels of one event and stable across retries; batch_id is
// fixed at the first attempt, so a grouped message keeps its id (and its members) when it is sent again.
const V5_DELIVERY_OUTBOX = `
CREATE TABLE channels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('email', 'webhook', 'alertmanager')),
  min_severity TEXT NOT NULL CHECK (min_severity IN ('critical', 'warning', 'info')),
  account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
  hold_criticals INTEGER NOT NULL DEFAULT 0,
  config_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_success_at TEXT,
  last_error TEXT,
  last_error_at TEXT
);

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL,
  channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('alert.raised', 'alert.resolved')),
  created_at TEXT NOT NULL,
  batch_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  delivered_at TEXT,
  last_error TEXT,
  UNIQUE (channel_id, event_id)
);
CREATE INDEX outbox_pending ON outbox (channel_id, next_attempt_at) WHERE delivered_at IS NULL;
CREATE INDEX outbox_by_alert ON outbox (alert_id);
`;

// v6: what every poll of sending-services and failed-sources said about each sender (senderHistory.ts):
// consecutive identical polls are one row, from fetched_at to last_fetched_at.
const V6_SOURCE_POLLS = `
CREATE TABLE source_polls (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('failed', 'sending')),
  source_name TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  last_fetched_at TEXT NOT NULL,
  window_start TEXT NOT NULL,
  window_end TEXT NOT NULL,
  total_count INTEGER,
  dmarc_pass INTEGER,
  dmarc_fail INTEGER,
  compliance REAL,
  status TEXT,
  is_registered_threat INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (domain_id, kind, source_name, fetched_at)
);
CREATE INDEX source_polls_by_sender ON source_polls (domain_id, source_name, fetched_at);
`;

// v7: the DNS watch (main/core/dnswatch): what DNS answers now for each protocol record of a domain, beside the
// service's view. answer: the latest answer (present, invalid, absent, unknown); state: the confirmed
// evidence the alert rules read (connected, disconnected; NULL before the first answer), since when
// (state_since) and as of which answer (state_checked_at).
const V7_DNS_WATCH = `
CREATE TABLE dns_watch (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  protocol TEXT NOT NULL,
  name TEXT NOT NULL,
  answer TEXT NOT NULL CHECK (answer IN ('present', 'invalid', 'absent', 'unknown')),
  value TEXT,
  reason TEXT,
  ttl INTEGER,
  resolver TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  state TEXT CHECK (state IS NULL OR state IN ('connected', 'disconnected')),
  state_since TEXT,
  state_checked_at TEXT,
  PRIMARY KEY (domain_id, protocol)
);
`;

// v8: edits written but not yet seen by the service's checks (main/core/status/pending.ts). One row per
// domain and protocol: a newer edit of the same protocol replaces the older one.
const V8_PENDING_CHANGES = `
CREATE TABLE pending_changes (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  protocol TEXT NOT NULL,
  summary TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  baseline_at TEXT,
  expect_json TEXT NOT NULL,
  PRIMARY KEY (domain_id, protocol)
);
`;

// v9: what the app's own edits changed (main/core/app/editChanges.ts), by the request id the audit log keeps:
// the audit page tells "p: quarantine → reject" or "role: Viewer → Admin" beside the entry. changes_json is a
// list of { field, before, after } (strings or null); rows older than a year are dropped on write.
const V9_CHANGE_JOURNAL = `
CREATE TABLE change_journal (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  request_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  changes_json TEXT NOT NULL,
  PRIMARY KEY (account_id, request_id)
);
CREATE INDEX change_journal_by_time ON change_journal (changed_at);
`;

// v10: the weekly digest mailed on a schedule (main/core/delivery/digestRunner.ts). One schedule per account: a
// weekday, hour and minute in the user's zone and the email channel it goes by. last_slot is the newest slot
// whose digest was delivered — a restart never sends it again, and a slot missed while the machine was off is
// sent once at the next start; slots at or before `since` (when the schedule was set) are not owed.
const V10_DIGEST_SCHEDULES = `
CREATE TABLE digest_schedules (
  account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  weekday INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
  hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
  minute INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 59),
  time_zone TEXT NOT NULL,
  since TEXT NOT NULL,
  last_slot TEXT,
  last_sent_at TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_error TEXT,
  last_error_at TEXT
);
`;

// v11: the newest values of "extra" signals (main/core/mirror/extraSignalStore.ts), keyed by signal name, so a
// new signal whose value is one small JSON document needs no table of its own and no migration. A bounded
// history (the store keeps the newest few per domain and signal) lets a rule compare before and after.
const V11_EXTRA_SIGNAL_VALUES = `
CREATE TABLE extra_signal_values (
  domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE,
  signal TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  value_json TEXT NOT NULL,
  PRIMARY KEY (domain_id, signal, fetched_at)
);
`;

// v12: each domain's status as the status model derived it (main/core/mirror/statusSummary.ts), so the
// overview reads rows instead of deriving every domain's status. Triggers mark a domain whenever a row the
// model reads changes, in that row's transaction; the mirror derives the marked domains before it commits,
// and readers derive any still marked themselves. The back-fill runs when the mirror opens: status_model
// starts at 0, so every domain is derived then.
const V12_STATUS_SUMMARY = (() => {
  // Not `INSERT OR IGNORE`: SQLite applies the firing statement's conflict policy to a trigger's statements,
  // so an upsert (INSERT … ON CONFLICT DO UPDATE, e.g. the DNS watch's) made the ignore an abort on a domain
  // already marked in the same transaction. Marking only what is not marked yet cannot conflict.
  const mark = (table: string, event: string, row: 'NEW' | 'OLD', when = '') =>
    `CREATE TRIGGER status_dirty_${table}_${event.split(' ')[0]!.toLowerCase()} AFTER ${event} ON ${table}
       ${when ? `WHEN ${when.replaceAll('ROW', row)}` : ''}
       BEGIN INSERT INTO status_dirty (domain_id) SELECT ${row}.domain_id
         WHERE NOT EXISTS (SELECT 1 FROM status_dirty WHERE domain_id = ${row}.domain_id); END;`;
  const tables = ['health_snapshots', 'dns_events', 'dns_current', 'dns_watch', 'pending_changes'];
  const alertColumns = 'resolved_at, rule, severity, title, details_json, domain_id';
  return `
CREATE TABLE domain_status (
  domain_id INTEGER PRIMARY KEY REFERENCES domains(id) ON DELETE CASCADE,
  model INTEGER NOT NULL,
  status_json TEXT NOT NULL
);
CREATE TABLE status_dirty (domain_id INTEGER PRIMARY KEY);
-- The status model version the stored statuses were derived by (0: none yet): checked once when a mirror opens.
CREATE TABLE status_model (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT INTO status_model (id, version) VALUES (1, 0);
${tables.map((t) => [mark(t, 'INSERT', 'NEW'), mark(t, 'UPDATE', 'NEW'), mark(t, 'DELETE', 'OLD')].join('\n')).join('\n')}
${mark('alerts', 'INSERT', 'NEW', 'ROW.domain_id IS NOT NULL')}
${mark('alerts', `UPDATE OF ${alertColumns}`, 'NEW', 'NEW.domain_id IS NOT NULL')}
${mark('alerts', `UPDATE OF ${alertColumns}`, 'OLD', 'OLD.domain_id IS NOT NULL').replace('status_dirty_alerts_update', 'status_dirty_alerts_update_old')}
${mark('alerts', 'DELETE', 'OLD', 'ROW.domain_id IS NOT NULL')}
`;
})();

// v13: what the overview filters, sorts and counts by, per domain, beside each stored status
// (statusSummary.ts writes both in one flush): a narrow table, so the window's first screen reads small rows
// of every domain — not the status JSON of 5,000 (8 MB of pages cold) — and parses the status of the rows it
// shows only. Every stored status is derived again when the mirror opens (status_model back to 0), which
// fills it.
const V13_STATUS_FACTS = `
CREATE TABLE status_facts (
  domain_id INTEGER PRIMARY KEY REFERENCES domains(id) ON DELETE CASCADE,
  model INTEGER NOT NULL,
  verdict_level TEXT NOT NULL,
  dmarc_state TEXT NOT NULL,
  dmarc_pct INTEGER,
  -- The failing protocols as ",spf,dmarc," (none: ","), and whether an optional one is not set up.
  failing TEXT NOT NULL,
  not_set_up INTEGER NOT NULL,
  required_passing INTEGER NOT NULL,
  optional_passing INTEGER NOT NULL
);
UPDATE status_model SET version = 0;
`;

// The open episodes by domain: what every signal write reads to dedupe its alerts, and what the status
// reads per domain. The alert history grows without bound (resolved episodes stay); the open ones do not.
const V14_OPEN_ALERTS_BY_DOMAIN = `
CREATE INDEX alerts_open_by_domain ON alerts (domain_id, account_id) WHERE resolved_at IS NULL;
`;

// The alerts still to notify, oldest first: read after every signal write, so by index rather than by a scan
// of every alert the mirror holds (delivered ones stay for good).
const V15_ALERTS_TO_DELIVER = `
CREATE INDEX alerts_to_deliver ON alerts (first_seen_at, id)
  WHERE delivered_at IS NULL AND acknowledged_at IS NULL AND suppressed IS NULL;
`;

// v16: silences (alerts/silences.ts), the alerts a silence held back from every channel (notified once when
// the silence ends while they are still open: kept here, not in a timer, so a restart or a kill -9 between
// the end and the send loses nothing and sends nothing twice), and the audit of who changed the lifecycle.
const V16_SILENCES = `
CREATE TABLE silences (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  matchers_json TEXT NOT NULL,
  reason TEXT NOT NULL,
  author TEXT NOT NULL,
  starts_at TEXT NOT NULL,
  ends_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expired_at TEXT,
  expired_by TEXT
);
CREATE INDEX silences_by_end ON silences (ends_at);
CREATE TABLE silence_holds (
  alert_id INTEGER PRIMARY KEY REFERENCES alerts(id) ON DELETE CASCADE,
  held_at TEXT NOT NULL
);
CREATE TABLE lifecycle_audit (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  subject TEXT NOT NULL,
  details_json TEXT NOT NULL DEFAULT '{}'
);
`;

// v17: acknowledgements with who, when and a note (and their withdrawal), kept as the alert's history; the
// outbox takes the lifecycle's update events (SQLite cannot widen a CHECK in place: the table is rebuilt,
// rows and ids kept).
const V17_ACKNOWLEDGEMENTS = `
CREATE TABLE alert_acks (
  id INTEGER PRIMARY KEY,
  alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  action TEXT NOT NULL CHECK (action IN ('acknowledged', 'unacknowledged')),
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  note TEXT
);
CREATE INDEX alert_acks_by_alert ON alert_acks (alert_id, id);
CREATE TABLE outbox_v17 (
  id INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL,
  channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('alert.raised', 'alert.resolved', 'alert.acknowledged',
    'alert.unacknowledged', 'alert.escalated', 'alert.repeated')),
  created_at TEXT NOT NULL,
  batch_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  delivered_at TEXT,
  last_error TEXT,
  UNIQUE (channel_id, event_id)
);
INSERT INTO outbox_v17 SELECT id, event_id, channel_id, alert_id, type, created_at, batch_id, attempts,
  next_attempt_at, delivered_at, last_error FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_v17 RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (channel_id, next_attempt_at) WHERE delivered_at IS NULL;
CREATE INDEX outbox_by_alert ON outbox (alert_id);
`;

// v18: the ordered routing table (mirror/routing.ts). A channel's minimum severity and account become a
// route of their own, so the table shows where alerts go; the channel keeps no filter of its own then.
// Every channel without one is reached by the default route, as before.
const V18_ROUTES = `
CREATE TABLE routes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  matchers_json TEXT NOT NULL DEFAULT '{}',
  channel_ids_json TEXT,
  continue INTEGER NOT NULL DEFAULT 0,
  is_default INTEGER NOT NULL DEFAULT 0,
  repeat_minutes INTEGER,
  escalate_after_minutes INTEGER,
  escalate_to_json TEXT NOT NULL DEFAULT '[]'
);
INSERT INTO routes (position, name, matchers_json, channel_ids_json, continue)
  SELECT row_number() OVER (ORDER BY name), 'Channel ' || name,
    json_object('severities', json(CASE min_severity WHEN 'critical' THEN '["critical"]'
      WHEN 'warning' THEN '["warning","critical"]' ELSE '["info","warning","critical"]' END)),
    json_array(id), 1
  FROM channels WHERE min_severity <> 'info' OR account_id IS NOT NULL;
UPDATE routes SET matchers_json = json_set(matchers_json, '$.accountId',
    (SELECT account_id FROM channels c WHERE c.id = routes.channel_ids_json ->> '$[0]'))
  WHERE (SELECT account_id FROM channels c WHERE c.id = routes.channel_ids_json ->> '$[0]') IS NOT NULL;
UPDATE routes SET matchers_json = json_remove(matchers_json, '$.severities')
  WHERE matchers_json ->> '$.severities' = '["info","warning","critical"]';
UPDATE channels SET min_severity = 'info', account_id = NULL;
INSERT INTO routes (position, name, is_default) VALUES (1000000, 'Default', 1);
`;

// v19: what escalation and repeat already sent per alert and route (mirror/escalation.ts), so a restart
// neither repeats an escalation nor forgets how many reminders went.
const V19_ROUTE_NOTICES = `
CREATE TABLE route_notices (
  alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  route_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('escalated', 'repeated')),
  count INTEGER NOT NULL,
  last_at TEXT NOT NULL,
  PRIMARY KEY (alert_id, route_id, kind)
);
`;

// v20: recurring maintenance windows (alerts/maintenanceWindows.ts), holding alerts as silences while open.
const V20_MAINTENANCE_WINDOWS = `
CREATE TABLE maintenance_windows (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  matchers_json TEXT NOT NULL,
  weekdays_json TEXT NOT NULL,
  hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
  minute INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 59),
  duration_minutes INTEGER NOT NULL CHECK (duration_minutes BETWEEN 1 AND 1440),
  time_zone TEXT NOT NULL,
  author TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

// v21: where a silence came from: null when a person made it, or the edit in the app that opened it (the
// alerts that edit is expected to cause, held for a short while), so every screen can say "Opened by your edit".
const V21_SILENCE_ORIGIN = `
ALTER TABLE silences ADD COLUMN origin_json TEXT;
`;

// v22: live checks (main/core/livechecks): each check's latest result per domain (or account) and a short
// history of its changes. `result_json` is the last result a probe could take (an `unknown` attempt keeps it,
// so the rules' "before" and the Checks tab's "what it saw" survive a resolver's bad minute); `dns_seen` is the
// DNS watch's record value the check last ran after, so a changed TXT record makes it due at once.
const V22_LIVE_CHECKS = `
CREATE TABLE live_check_results (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  check_name TEXT NOT NULL,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('ok', 'problem', 'not_applicable', 'unknown')),
  words TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  since TEXT NOT NULL,
  result_json TEXT,
  result_at TEXT,
  dns_seen TEXT
);
CREATE UNIQUE INDEX live_check_results_target ON live_check_results (check_name, account_id, ifnull(domain_id, 0));
CREATE INDEX live_check_results_domain ON live_check_results (domain_id);
CREATE TABLE live_check_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  check_name TEXT NOT NULL,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  domain_id INTEGER REFERENCES domains(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  words TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  result_json TEXT
);
CREATE INDEX live_check_history_target ON live_check_history (check_name, account_id, ifnull(domain_id, 0), id);
CREATE INDEX live_check_history_domain ON live_check_history (domain_id);
`;

// v23: a route's own group wait (Alertmanager's group_wait), carried by the outbox rows it queued so the
// sender gathers them as that route asks; whether a route's channels hear of silences starting and ending
// (the outbox takes alert.silenced / alert.unsilenced: rebuilt to widen its CHECK, rows and ids kept); and
// which told alerts channels were told are silenced, so "unsilenced" goes once, across restarts.
const V23_ROUTE_GROUP_WAIT = `
ALTER TABLE routes ADD COLUMN group_wait_seconds INTEGER;
ALTER TABLE routes ADD COLUMN silence_events INTEGER NOT NULL DEFAULT 0;
CREATE TABLE outbox_v23 (
  id INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL,
  channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('alert.raised', 'alert.resolved', 'alert.acknowledged',
    'alert.unacknowledged', 'alert.escalated', 'alert.repeated', 'alert.silenced', 'alert.unsilenced')),
  created_at TEXT NOT NULL,
  batch_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  delivered_at TEXT,
  last_error TEXT,
  group_wait_seconds INTEGER,
  UNIQUE (channel_id, event_id)
);
INSERT INTO outbox_v23 SELECT id, event_id, channel_id, alert_id, type, created_at, batch_id, attempts,
  next_attempt_at, delivered_at, last_error, NULL FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_v23 RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (channel_id, next_attempt_at) WHERE delivered_at IS NULL;
CREATE INDEX outbox_by_alert ON outbox (alert_id);
CREATE TABLE silence_notices (
  alert_id INTEGER PRIMARY KEY REFERENCES alerts(id) ON DELETE CASCADE,
  channel_ids_json TEXT NOT NULL,
  hold_json TEXT NOT NULL,
  at TEXT NOT NULL
);
`;

/** Every schema step, oldest first. Append only: a released step is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial tables', up: (db) => db.exec(V1_INITIAL) },
  { version: 2, name: 'alert snooze and domain mutes', up: (db) => db.exec(V2_SNOOZE_AND_MUTE) },
  { version: 3, name: 'panel cache', up: (db) => db.exec(V3_PANEL_CACHE) },
  { version: 4, name: 'why an alert ended', up: (db) => db.exec(V4_ALERT_END_REASON) },
  { version: 5, name: 'delivery channels and outbox', up: (db) => db.exec(V5_DELIVERY_OUTBOX) },
  { version: 6, name: 'sender polls', up: (db) => db.exec(V6_SOURCE_POLLS) },
  { version: 7, name: 'DNS watch', up: (db) => db.exec(V7_DNS_WATCH) },
  { version: 8, name: 'pending changes', up: (db) => db.exec(V8_PENDING_CHANGES) },
  { version: 9, name: 'change journal', up: (db) => db.exec(V9_CHANGE_JOURNAL) },
  { version: 10, name: 'weekly digest schedules', up: (db) => db.exec(V10_DIGEST_SCHEDULES) },
  { version: 11, name: 'extra signal values', up: (db) => db.exec(V11_EXTRA_SIGNAL_VALUES) },
  { version: 12, name: 'status summary per domain', up: (db) => db.exec(V12_STATUS_SUMMARY) },
  { version: 13, name: 'status facts the overview sorts by', up: (db) => db.exec(V13_STATUS_FACTS) },
  { version: 14, name: 'open alerts by domain', up: (db) => db.exec(V14_OPEN_ALERTS_BY_DOMAIN) },
  { version: 15, name: 'alerts to deliver', up: (db) => db.exec(V15_ALERTS_TO_DELIVER) },
  { version: 16, name: 'silences', up: (db) => db.exec(V16_SILENCES) },
  { version: 17, name: 'acknowledgement notes', up: (db) => db.exec(V17_ACKNOWLEDGEMENTS) },
  { version: 18, name: 'routing table', up: (db) => db.exec(V18_ROUTES) },
  { version: 19, name: 'escalations and repeats', up: (db) => db.exec(V19_ROUTE_NOTICES) },
  { version: 20, name: 'maintenance windows', up: (db) => db.exec(V20_MAINTENANCE_WINDOWS) },
  { version: 21, name: 'silence origin', up: (db) => db.exec(V21_SILENCE_ORIGIN) },
  { version: 22, name: 'live checks', up: (db) => db.exec(V22_LIVE_CHECKS) },
  { version: 23, name: 'route group wait and silence events', up: (db) => db.exec(V23_ROUTE_GROUP_WAIT) },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Bring the database up to the last step of `migrations`, one transaction per step, so a crash leaves it at
 * a whole version. A database from newer code is refused rather than guessed at.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): { from: number; to: number } {
  const from = db.pragma('user_version', { simple: true }) as number;
  const target = migrations.at(-1)?.version ?? 0;
  if (from > target) {
    throw new MirrorError(
      'newer_schema',
      `the mirror database is at schema version ${from}, newer than this app understands (${target})`,
    );
  }
  for (const step of migrations) {
    if (step.version <= from) continue;
    db.transaction(() => {
      step.up(db);
      db.pragma(`user_version = ${step.version}`);
    })();
  }
  return { from, to: target };
}
