-- A counter of changes to the sandbox DNS zone (`dns_records`), bumped by triggers on every insert, update
-- and delete. The zone server keeps what has no index in memory (which names have records below them) and
-- reads it again only when this counter moved — other tables' writes do not make it re-read the zone.
CREATE TABLE dns_records_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO dns_records_version (id, version) VALUES (1, 0);
CREATE TRIGGER dns_records_version_insert AFTER INSERT ON dns_records
  BEGIN UPDATE dns_records_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER dns_records_version_update AFTER UPDATE ON dns_records
  BEGIN UPDATE dns_records_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER dns_records_version_delete AFTER DELETE ON dns_records
  BEGIN UPDATE dns_records_version SET version = version + 1 WHERE id = 1; END;
