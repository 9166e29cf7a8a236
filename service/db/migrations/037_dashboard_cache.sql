-- Precomputed dashboard snapshots (S3b, service/reports/dashboardSnapshot.ts), one per (domain, window):
-- written when reports are ingested (the windows already cached for the domain and the default 30-day window)
-- or by the recompute control POST /_sandbox/dashboard-cache; GET /domains/{id}/dashboard-cache serves them.
-- data: the snapshot payload as JSON text; cached_at: when it was computed (service clock).
CREATE TABLE dashboard_snapshots (
  domain_id   INTEGER NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  start_date  TEXT    NOT NULL,
  end_date    TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  cached_at   TEXT    NOT NULL,
  PRIMARY KEY (domain_id, start_date, end_date)
);
