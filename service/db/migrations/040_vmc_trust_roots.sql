-- Extra trust anchors of the VMC checks, on top of the BIMI roots shipped with @postalsys/vmc: the sandbox's
-- equivalent of a test CA. Rows are written only by the sandbox control POST /_sandbox/vmc-roots (mounted only
-- with a sandbox key) and by the demo seed through it; a production database keeps this table empty.
CREATE TABLE vmc_trust_roots (
  id                  INTEGER PRIMARY KEY,
  fingerprint_sha256  TEXT    NOT NULL UNIQUE,
  subject             TEXT    NOT NULL,
  pem                 TEXT    NOT NULL,
  created_at          TEXT    NOT NULL
);
