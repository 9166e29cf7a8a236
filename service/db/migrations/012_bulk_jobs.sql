-- Bulk-add jobs of POST /domains/bulk (S1). The job runs in the service process after the 202; its state
-- and per-domain results live here so GET /domains/bulk/{job_id} can report progress.
CREATE TABLE bulk_jobs (
  id            TEXT    PRIMARY KEY,                       -- UUID
  team_id       INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,
  status        TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  created_at    TEXT    NOT NULL,
  started_at    TEXT,
  completed_at  TEXT
);
CREATE INDEX bulk_jobs_team ON bulk_jobs (team_id);

-- One row per submitted name, in submission order. domain_id has no foreign key: the result of a job
-- stays readable after the domain it created is deleted.
CREATE TABLE bulk_job_items (
  job_id     TEXT    NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  fqdn       TEXT    NOT NULL,
  status     TEXT    NOT NULL CHECK (status IN ('pending', 'created', 'exists', 'invalid', 'failed')),
  domain_id  INTEGER,
  error      TEXT,
  PRIMARY KEY (job_id, position)
);
