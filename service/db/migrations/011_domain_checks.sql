-- Results of POST /domains/{id}/verify (per protocol) and POST /domains/{id}/check-dns (S1).

-- The latest verification of each protocol of a domain; domains.<protocol>_verified mirrors `verified`.
-- source: 'dns' (the published record was looked up) or 'supplied' (the request body gave the record).
CREATE TABLE domain_protocol_checks (
  domain_id     INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  protocol      TEXT    NOT NULL CHECK (protocol IN ('dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi')),
  verified      INTEGER NOT NULL CHECK (verified IN (0, 1)),
  status        TEXT    NOT NULL,
  record_value  TEXT,
  message       TEXT,
  source        TEXT    NOT NULL CHECK (source IN ('dns', 'supplied')),
  checked_at    TEXT    NOT NULL,
  PRIMARY KEY (domain_id, protocol)
);

-- The latest check-dns result of a domain (JSON of the DnsFetchResult schema). GET dns-fetch-result serves
-- it until expires_at (fetched_at + 7 days); fetched_at also feeds the domain's dns_checked_at.
CREATE TABLE dns_fetch_results (
  domain_id   INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
  fetched_at  TEXT    NOT NULL,
  expires_at  TEXT    NOT NULL,
  result      TEXT    NOT NULL
);
