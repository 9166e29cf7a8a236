-- Ingested DMARC aggregate (rua) reports (S3b, service/reports/dmarcIngest.ts), as parsed by
-- service/ingest (RFC 7489 Appendix C names). Mail volume, sending sources, failed sources and the dashboard
-- snapshot are computed from these rows; hosted DMARC's recommendation reads them too
-- (service/hosted/alignmentSource.ts relies on date_begin, count, policy_dkim, policy_spf, source_ip).

-- One report, stored once per (domain, reporter, report id): the same report ingested again changes nothing.
-- date_begin/date_end: ISO 8601 UTC; a report's messages are attributed to the UTC day of date_begin.
-- errors/warnings: JSON arrays of strings (receiver's <error>s; the parser's repairs and defaults).
CREATE TABLE dmarc_reports (
  id                  INTEGER PRIMARY KEY,
  domain_id           INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  org_name            TEXT    NOT NULL,
  email               TEXT    NOT NULL,
  extra_contact_info  TEXT,
  report_id           TEXT    NOT NULL,
  date_begin          TEXT    NOT NULL,
  date_end            TEXT    NOT NULL,
  policy_domain       TEXT    NOT NULL,
  policy_adkim        TEXT    NOT NULL CHECK (policy_adkim IN ('r', 's')),
  policy_aspf         TEXT    NOT NULL CHECK (policy_aspf IN ('r', 's')),
  policy_p            TEXT    NOT NULL CHECK (policy_p IN ('none', 'quarantine', 'reject')),
  policy_sp           TEXT    NOT NULL CHECK (policy_sp IN ('none', 'quarantine', 'reject')),
  policy_pct          INTEGER NOT NULL,
  policy_fo           TEXT,
  errors              TEXT    NOT NULL DEFAULT '[]',
  warnings            TEXT    NOT NULL DEFAULT '[]',
  record_count        INTEGER NOT NULL,
  message_count       INTEGER NOT NULL,
  received_at         TEXT    NOT NULL,
  UNIQUE (domain_id, org_name, report_id)
);
CREATE INDEX dmarc_reports_domain_begin ON dmarc_reports (domain_id, date_begin);

-- One <record> row. report_id: the dmarc_reports row. source_name: who sent (service/reports/sourceNaming.ts),
-- fixed at ingestion. disposition: what the receiver did (none/pass = delivered). policy_dkim/policy_spf:
-- the DMARC-aligned verdicts of policy_evaluated; the message passed DMARC when either is pass.
-- reasons/dkim_results/spf_results: JSON arrays as the parser normalized them.
CREATE TABLE dmarc_report_records (
  id             INTEGER PRIMARY KEY,
  report_id      INTEGER NOT NULL REFERENCES dmarc_reports (id) ON DELETE CASCADE,
  source_ip      TEXT    NOT NULL,
  source_name    TEXT    NOT NULL,
  count          INTEGER NOT NULL CHECK (count >= 0),
  disposition    TEXT    NOT NULL CHECK (disposition IN ('none', 'pass', 'quarantine', 'reject')),
  policy_dkim    TEXT    NOT NULL CHECK (policy_dkim IN ('pass', 'fail')),
  policy_spf     TEXT    NOT NULL CHECK (policy_spf IN ('pass', 'fail')),
  header_from    TEXT    NOT NULL,
  envelope_from  TEXT,
  envelope_to    TEXT,
  reasons        TEXT    NOT NULL DEFAULT '[]',
  dkim_results   TEXT    NOT NULL DEFAULT '[]',
  spf_results    TEXT    NOT NULL DEFAULT '[]'
);
CREATE INDEX dmarc_report_records_report ON dmarc_report_records (report_id);
CREATE INDEX dmarc_report_records_source ON dmarc_report_records (source_name);
