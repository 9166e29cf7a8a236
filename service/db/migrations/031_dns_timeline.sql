-- The DNS timeline (S3a): connect/disconnect events and DMARC/SPF record snapshots, written by guard scans
-- (service/scan/guardScan.ts) and read by the /domains/{id}/dns/* operations.

-- A protocol's connection changed between two scans (or was first seen connected). record_value: the
-- record now published for a connected event; null for a disconnected one (nothing is published any more).
CREATE TABLE dns_events (
  id             INTEGER PRIMARY KEY,
  domain_id      INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  record_type    TEXT    NOT NULL CHECK (record_type IN ('dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi')),
  action         TEXT    NOT NULL CHECK (action IN ('connected', 'disconnected')),
  record_value   TEXT,
  status_before  TEXT    NOT NULL CHECK (status_before IN ('connected', 'disconnected')),
  status_after   TEXT    NOT NULL CHECK (status_after IN ('connected', 'disconnected')),
  occurred_at    TEXT    NOT NULL,
  CHECK (status_after = action AND status_before <> status_after)
);
CREATE INDEX dns_events_domain_time ON dns_events (domain_id, occurred_at DESC, id DESC);

-- The DMARC or SPF record value each time a scan saw it change (null: the record was removed).
-- lookup_count: SPF only.
CREATE TABLE dns_record_snapshots (
  id            INTEGER PRIMARY KEY,
  domain_id     INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  record_type   TEXT    NOT NULL CHECK (record_type IN ('dmarc', 'spf')),
  record_value  TEXT,
  lookup_count  INTEGER,
  occurred_at   TEXT    NOT NULL,
  CHECK ((record_type = 'spf') = (lookup_count IS NOT NULL))
);
CREATE INDEX dns_record_snapshots_domain_time ON dns_record_snapshots (domain_id, record_type, occurred_at, id);
