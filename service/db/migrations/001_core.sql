-- Core schema of the reference service: accounts, users, roles, tokens, audit, domains, groups,
-- the sandbox DNS zone and registered threats. Timestamps are ISO 8601 UTC strings from the injected clock.
-- Later files (010_*, 020_*, 030_*) add the tables of the domain operations.

CREATE TABLE teams (
  id          INTEGER PRIMARY KEY,
  name        TEXT    NOT NULL,
  plan        TEXT    NOT NULL CHECK (plan IN ('comply', 'trial', 'protect', 'suite')),
  api_access  INTEGER NOT NULL DEFAULT 1 CHECK (api_access IN (0, 1)),
  created_at  TEXT    NOT NULL
);

-- The role catalogue is global. Owner, Admin and Editor are not assignable through the API.
-- permissions: JSON array of permission names (see service/auth/permissions.ts).
CREATE TABLE roles (
  id           INTEGER PRIMARY KEY,
  name         TEXT    NOT NULL UNIQUE,
  description  TEXT    NOT NULL,
  assignable   INTEGER NOT NULL CHECK (assignable IN (0, 1)),
  permissions  TEXT    NOT NULL
);

INSERT INTO roles (id, name, description, assignable, permissions) VALUES
  (1, 'Owner', 'Account owner: full control of the team, domains, hosted records and billing.', 0,
   '["domains.view","domains.edit","records.edit","users.view","users.manage","reports.view","audit.view","tokens.manage","billing.manage"]'),
  (2, 'Admin', 'Full control of domains, hosted records and members, except billing.', 0,
   '["domains.view","domains.edit","records.edit","users.view","users.manage","reports.view","audit.view","tokens.manage"]'),
  (3, 'Editor', 'Edits domains and hosted records of every domain.', 0,
   '["domains.view","domains.edit","records.edit","reports.view","tokens.manage"]'),
  (4, 'Viewer', 'Read-only access to the domains granted to the member.', 1,
   '["domains.view","reports.view"]'),
  (5, 'Analyst', 'Reads reports, analytics and audit logs of the granted domains.', 1,
   '["domains.view","reports.view","audit.view"]'),
  (6, 'Domain Manager', 'Manages the granted domains and their hosted records.', 1,
   '["domains.view","domains.edit","records.edit","reports.view"]');

CREATE TABLE users (
  id               INTEGER PRIMARY KEY,
  team_id          INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name             TEXT    NOT NULL,
  email            TEXT    NOT NULL,
  language         TEXT    NOT NULL DEFAULT 'en',
  role_id          INTEGER NOT NULL REFERENCES roles (id),
  status           TEXT    NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled', 'invited')),
  is_owner         INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1)),
  enforce_2fa      INTEGER NOT NULL DEFAULT 0 CHECK (enforce_2fa IN (0, 1)),
  mfa_enabled      INTEGER NOT NULL DEFAULT 0 CHECK (mfa_enabled IN (0, 1)),
  mfa_methods      TEXT    NOT NULL DEFAULT '[]',          -- JSON array: totp, email, sms
  invited_at       TEXT,
  last_login_at    TEXT,
  created_at       TEXT    NOT NULL,
  updated_at       TEXT    NOT NULL,
  UNIQUE (team_id, email)
);
CREATE INDEX users_team ON users (team_id);
-- One owner per team.
CREATE UNIQUE INDEX users_one_owner ON users (team_id) WHERE is_owner = 1;

-- Registered passkeys (WebAuthn credentials) of a user; only their labels matter to the API.
CREATE TABLE user_passkeys (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name          TEXT    NOT NULL,
  created_at    TEXT    NOT NULL,
  last_used_at  TEXT
);
CREATE INDEX user_passkeys_user ON user_passkeys (user_id);

-- API tokens: only the sha256 of the secret is stored; prefix ("awt_" + 4) and last_four are display hints.
CREATE TABLE api_tokens (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name          TEXT    NOT NULL,
  prefix        TEXT    NOT NULL,
  last_four     TEXT    NOT NULL,
  token_hash    TEXT    NOT NULL UNIQUE,
  scopes        TEXT    NOT NULL,                          -- JSON array of scope ids
  expires_at    TEXT    NOT NULL,
  revoked_at    TEXT,
  last_used_at  TEXT,
  created_at    TEXT    NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- No foreign keys: an audit entry outlives the token, user and even the team it names.
CREATE TABLE audit_logs (
  id           INTEGER PRIMARY KEY,
  request_id   TEXT    NOT NULL,
  action       TEXT    NOT NULL,
  method       TEXT    NOT NULL,
  path         TEXT    NOT NULL,
  status_code  INTEGER NOT NULL,
  ip_address   TEXT    NOT NULL,
  token_id     INTEGER NOT NULL,
  token_name   TEXT    NOT NULL,
  user_id      INTEGER NOT NULL,
  team_id      INTEGER NOT NULL,
  created_at   TEXT    NOT NULL
);
CREATE INDEX audit_logs_team_time ON audit_logs (team_id, created_at DESC, id DESC);

CREATE TABLE domain_groups (
  id          INTEGER PRIMARY KEY,
  team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name        TEXT    NOT NULL,
  status      TEXT    NOT NULL DEFAULT 'active',
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL,
  UNIQUE (team_id, name)
);

CREATE TABLE domains (
  id                 INTEGER PRIMARY KEY,
  team_id            INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  fqdn               TEXT    NOT NULL,                     -- lower case, no trailing dot
  parent_domain_id   INTEGER REFERENCES domains (id) ON DELETE SET NULL,
  group_id           INTEGER REFERENCES domain_groups (id) ON DELETE SET NULL,
  status             TEXT    NOT NULL DEFAULT 'active',
  onboarding_status  TEXT    NOT NULL DEFAULT 'pending',
  dmarc_verified     INTEGER NOT NULL DEFAULT 0 CHECK (dmarc_verified IN (0, 1)),
  spf_verified       INTEGER NOT NULL DEFAULT 0 CHECK (spf_verified IN (0, 1)),
  mta_sts_verified   INTEGER NOT NULL DEFAULT 0 CHECK (mta_sts_verified IN (0, 1)),
  tls_rpt_verified   INTEGER NOT NULL DEFAULT 0 CHECK (tls_rpt_verified IN (0, 1)),
  bimi_verified      INTEGER NOT NULL DEFAULT 0 CHECK (bimi_verified IN (0, 1)),
  verified_at        TEXT,
  dns_checked_at     TEXT,                                 -- last check-dns run
  created_at         TEXT    NOT NULL,
  updated_at         TEXT    NOT NULL,
  UNIQUE (team_id, fqdn)
);
CREATE INDEX domains_group ON domains (group_id);
CREATE INDEX domains_fqdn ON domains (fqdn);

-- Domain access of members whose role does not see every domain (see service/domains/visibility.ts).
CREATE TABLE user_domains (
  user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  domain_id  INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, domain_id)
);

-- The sandbox DNS zone. zone: the apex the record was published under (the zone answers authoritatively
-- for every name at or under it); name: lower case owner name without trailing dot; rrtype upper case.
CREATE TABLE dns_records (
  id          INTEGER PRIMARY KEY,
  zone        TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  rrtype      TEXT    NOT NULL,
  value       TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL
);
CREATE INDEX dns_records_name ON dns_records (name, rrtype);
CREATE INDEX dns_records_zone ON dns_records (zone);

-- Sending sources known to be malicious (is_registered_threat).
CREATE TABLE threats (
  id           INTEGER PRIMARY KEY,
  source_name  TEXT    NOT NULL UNIQUE COLLATE NOCASE,
  created_at   TEXT    NOT NULL
);
