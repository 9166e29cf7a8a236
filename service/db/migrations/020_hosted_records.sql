-- Hosted records an owner edits (S2): DMARC, SPF (with includes and IP actions), BIMI, MTA-STS, TLS-RPT,
-- and one history table of every change made to them. One configuration row per domain and protocol;
-- deleting the domain deletes them all (the history too).
--
-- The records themselves are served from the service's own DNS zone (rows of dns_records under
-- hosted.authwatch.example, see service/hosted/serviceDns.ts); the rows here are the configuration they are
-- built from.

-- Hosted DMARC: tags as written in the record (NULL: tag absent). value is the built record.
CREATE TABLE hosted_dmarc (
  domain_id   INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
  enabled     INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  p           TEXT    NOT NULL CHECK (p IN ('none', 'quarantine', 'reject')),
  sp          TEXT    CHECK (sp IN ('none', 'quarantine', 'reject')),
  pct         INTEGER CHECK (pct BETWEEN 0 AND 100),
  adkim       TEXT    CHECK (adkim IN ('r', 's')),
  aspf        TEXT    CHECK (aspf IN ('r', 's')),
  rua         TEXT,                                   -- comma-separated URIs
  ruf         TEXT,
  fo          TEXT,                                   -- colon-separated options
  ri          INTEGER,
  value       TEXT    NOT NULL,
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL
);

-- Hosted SPF: the terminal all; the record is built from it, the includes and the IP actions.
CREATE TABLE hosted_spf (
  domain_id     INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
  enabled       INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  all_qualifier TEXT    NOT NULL CHECK (all_qualifier IN ('-all', '~all', '?all', '+all')),
  value         TEXT    NOT NULL,
  created_at    TEXT    NOT NULL,
  updated_at    TEXT    NOT NULL
);

-- Include targets of a domain's hosted SPF record, in the order they were added.
-- lookup_count: DNS lookups the include costs (itself plus its nested terms) when it was added; NULL when
-- its record could not be resolved then.
CREATE TABLE spf_includes (
  id               INTEGER PRIMARY KEY,
  domain_id        INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  include_content  TEXT    NOT NULL,                  -- lower case, no trailing dot
  lookup_count     INTEGER,
  created_at       TEXT    NOT NULL,
  UNIQUE (domain_id, include_content)
);

-- IP actions: Allow (ip4/ip6 terms) and Reject (-ip4/-ip6 terms written first). ip is the canonical network.
CREATE TABLE spf_ip_actions (
  id          INTEGER PRIMARY KEY,
  domain_id   INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  ip          TEXT    NOT NULL,
  type        TEXT    NOT NULL CHECK (type IN ('Allow', 'Reject')),
  created_at  TEXT    NOT NULL,
  UNIQUE (domain_id, ip)
);

-- Partner BIMI registration requests of a team (GET /bimi/registrations). Seeded empty: rows come from the
-- partner programme, not from the API.
CREATE TABLE bimi_registrations (
  id          INTEGER PRIMARY KEY,
  team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  domain_id   INTEGER REFERENCES domains (id) ON DELETE SET NULL,
  fqdn        TEXT    NOT NULL,
  partner     TEXT    NOT NULL,
  status      TEXT    NOT NULL DEFAULT 'pending',
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL
);
CREATE INDEX bimi_registrations_team ON bimi_registrations (team_id, created_at DESC);

-- Hosted BIMI: the uploaded logo and certificate (the hosted files), the record built from them or a manual
-- override, and the cached VMC analysis (JSON of VmcAnalysis without the cache fields).
CREATE TABLE bimi_configs (
  domain_id        INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
  enabled          INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  selector         TEXT    NOT NULL DEFAULT 'default',
  svg_content      TEXT,
  vmc_pem          TEXT,
  record_override  TEXT,
  value            TEXT    NOT NULL,
  vmc_analysis     TEXT,
  vmc_analyzed_at  TEXT,
  created_at       TEXT    NOT NULL,
  updated_at       TEXT    NOT NULL
);

-- Hosted MTA-STS policy. policy_id is the id= of the _mta-sts record; it changes whenever the policy text does.
-- last_check: JSON of the latest POST check result; in_sync: the served policy matched the configured one then.
CREATE TABLE mta_sts_policies (
  domain_id        INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
  enabled          INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  mode             TEXT    NOT NULL CHECK (mode IN ('none', 'testing', 'enforce')),
  max_age          INTEGER NOT NULL,
  mx               TEXT    NOT NULL DEFAULT '[]',     -- JSON array of mx patterns
  policy_id        TEXT    NOT NULL,
  last_check       TEXT,
  last_checked_at  TEXT,
  in_sync          INTEGER CHECK (in_sync IN (0, 1)),
  created_at       TEXT    NOT NULL,
  updated_at       TEXT    NOT NULL
);

-- Hosted TLS-RPT record. custom = 1 when the owner supplied record_value (else the service default).
CREATE TABLE tls_rpt_configs (
  domain_id   INTEGER PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
  enabled     INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  value       TEXT    NOT NULL,
  custom      INTEGER NOT NULL DEFAULT 0 CHECK (custom IN (0, 1)),
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL
);

-- Every change to a hosted record: an 'activity' row (what someone did) and a 'snapshot' row (the record the
-- service serves after it; NULL when removed). Kept when the record is deleted; gone with the domain.
CREATE TABLE hosted_record_history (
  id            INTEGER PRIMARY KEY,
  domain_id     INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  protocol      TEXT    NOT NULL CHECK (protocol IN ('dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi')),
  kind          TEXT    NOT NULL CHECK (kind IN ('activity', 'snapshot')),
  action        TEXT,
  description   TEXT,
  record_value  TEXT,
  lookup_count  INTEGER,
  actor         TEXT,
  occurred_at   TEXT    NOT NULL
);
CREATE INDEX hosted_record_history_domain ON hosted_record_history (domain_id, protocol, occurred_at DESC, id DESC);
