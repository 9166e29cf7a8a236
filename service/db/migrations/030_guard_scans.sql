-- Guard scans (S3a, service/scan/guardScan.ts): what each domain published at each scan and what that
-- means. GET /domains/{id}/health serves the newest row; /health/history and /security-score/history the
-- rows of a window. Rows are never updated: one scan, one snapshot.

-- One scan of one domain. result: the label of service/scan/resultLabel.ts; mail_provider: detected from MX
-- (service/scan/mailProvider.ts); <protocol>_pass: the protocol's record is present AND valid;
-- dmarc_record: the DMARC record found (null when none was published).
CREATE TABLE health_snapshots (
  id                 INTEGER PRIMARY KEY,
  domain_id          INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  source             TEXT    NOT NULL DEFAULT 'guard_history' CHECK (source IN ('guard_history')),
  result             TEXT    NOT NULL,
  mail_provider      TEXT    NOT NULL,
  dmarc_pass         INTEGER NOT NULL CHECK (dmarc_pass IN (0, 1)),
  spf_pass           INTEGER NOT NULL CHECK (spf_pass IN (0, 1)),
  mta_sts_pass       INTEGER NOT NULL CHECK (mta_sts_pass IN (0, 1)),
  tls_rpt_pass       INTEGER NOT NULL CHECK (tls_rpt_pass IN (0, 1)),
  bimi_pass          INTEGER NOT NULL CHECK (bimi_pass IN (0, 1)),
  protocols_passing  INTEGER NOT NULL CHECK (protocols_passing BETWEEN 0 AND 5),
  dmarc_record       TEXT,
  scanned_at         TEXT    NOT NULL
);
CREATE INDEX health_snapshots_domain_time ON health_snapshots (domain_id, scanned_at DESC, id DESC);

-- Per-protocol detail of a scan (GET /dns/current, and the previous state the next scan compares with).
-- connection: connected when a record carrying the protocol's version tag is published (even an invalid
-- one), disconnected otherwise; status: valid, invalid, multiple, missing or dns_error (a failed lookup
-- carries the previous scan's connection, pass flag and value over, so an outage is not a disconnection);
-- lookup_count: SPF only, DNS-querying terms over the whole include tree.
CREATE TABLE health_snapshot_protocols (
  snapshot_id   INTEGER NOT NULL REFERENCES health_snapshots (id) ON DELETE CASCADE,
  protocol      TEXT    NOT NULL CHECK (protocol IN ('dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi')),
  connection    TEXT    NOT NULL CHECK (connection IN ('connected', 'disconnected')),
  pass          INTEGER NOT NULL CHECK (pass IN (0, 1)),
  status        TEXT    NOT NULL,
  record_value  TEXT,
  lookup_count  INTEGER,
  PRIMARY KEY (snapshot_id, protocol)
);
