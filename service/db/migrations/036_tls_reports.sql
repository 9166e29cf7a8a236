-- Ingested SMTP TLS reports (RFC 8460; S3b, service/reports/tlsIngest.ts), read by the TLS-RPT report
-- operations (service/operations/tlsRptReports.ts) and counted by GET /domains/{id}/tls-rpt (reports_count).

-- One report, stored once per (domain, organization, report-id). policy_domain/policy_type/policy_mode: of the
-- report's first policy for the domain (the summary the report list shows); totals: sums over all policies.
CREATE TABLE tls_reports (
  id                              INTEGER PRIMARY KEY,
  domain_id                       INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  report_id                       TEXT    NOT NULL,
  organization_name               TEXT    NOT NULL,
  contact_info                    TEXT,
  date_range_start                TEXT    NOT NULL,
  date_range_end                  TEXT    NOT NULL,
  policy_domain                   TEXT    NOT NULL,
  policy_type                     TEXT    NOT NULL,
  policy_mode                     TEXT    CHECK (policy_mode IN ('none', 'testing', 'enforce')),
  total_successful_session_count  INTEGER NOT NULL CHECK (total_successful_session_count >= 0),
  total_failure_session_count     INTEGER NOT NULL CHECK (total_failure_session_count >= 0),
  received_at                     TEXT    NOT NULL,
  UNIQUE (domain_id, organization_name, report_id)
);
CREATE INDEX tls_reports_domain_start ON tls_reports (domain_id, date_range_start DESC);
CREATE INDEX tls_reports_report_id ON tls_reports (report_id);

-- The policies of a report, in report order. policy_mode: the `mode:` line of an sts policy string (null for
-- tlsa / no-policy-found or when absent). policy_string/mx_host: JSON arrays of strings.
CREATE TABLE tls_report_policies (
  id                              INTEGER PRIMARY KEY,
  tls_report_id                   INTEGER NOT NULL REFERENCES tls_reports (id) ON DELETE CASCADE,
  position                        INTEGER NOT NULL,
  policy_type                     TEXT    NOT NULL,
  policy_domain                   TEXT    NOT NULL,
  policy_mode                     TEXT    CHECK (policy_mode IN ('none', 'testing', 'enforce')),
  policy_string                   TEXT    NOT NULL DEFAULT '[]',
  mx_host                         TEXT    NOT NULL DEFAULT '[]',
  total_successful_session_count  INTEGER NOT NULL CHECK (total_successful_session_count >= 0),
  total_failure_session_count     INTEGER NOT NULL CHECK (total_failure_session_count >= 0),
  UNIQUE (tls_report_id, position)
);

-- failure-details entries of a policy, in report order.
CREATE TABLE tls_failure_details (
  id                      INTEGER PRIMARY KEY,
  policy_id               INTEGER NOT NULL REFERENCES tls_report_policies (id) ON DELETE CASCADE,
  position                INTEGER NOT NULL,
  result_type             TEXT    NOT NULL,
  sending_mta_ip          TEXT,
  receiving_mx_hostname   TEXT,
  receiving_mx_helo       TEXT,
  receiving_ip            TEXT,
  failed_session_count    INTEGER NOT NULL CHECK (failed_session_count >= 0),
  additional_information  TEXT,
  failure_reason_code     TEXT,
  UNIQUE (policy_id, position)
);
