/**
 * Rows of the guard-scan tables (030_guard_scans.sql, 031_dns_timeline.sql): reading the newest snapshot of a
 * domain and writing what a scan found.
 */
import type { ServiceDb } from '../db/openServiceDb.ts';
import { prepared } from '../../shared/sqlite/preparedStatements.ts';
import { PROTOCOLS, type Protocol } from '../../shared/email-auth/protocols.ts';

/** Connection state of a protocol (the interface's ConnectionState). */
export type Connection = 'connected' | 'disconnected';

/** A row of health_snapshots. */
export interface HealthSnapshotRow {
  id: number;
  domain_id: number;
  source: 'guard_history';
  result: string;
  mail_provider: string;
  dmarc_pass: number;
  spf_pass: number;
  mta_sts_pass: number;
  tls_rpt_pass: number;
  bimi_pass: number;
  protocols_passing: number;
  dmarc_record: string | null;
  scanned_at: string;
}

/** A row of health_snapshot_protocols. */
export interface SnapshotProtocolRow {
  snapshot_id: number;
  protocol: Protocol;
  connection: Connection;
  pass: number;
  status: string;
  record_value: string | null;
  lookup_count: number | null;
}

/** A row of dns_events. */
export interface DnsEventRow {
  id: number;
  domain_id: number;
  record_type: Protocol;
  action: Connection;
  record_value: string | null;
  status_before: Connection;
  status_after: Connection;
  occurred_at: string;
}

/** A row of dns_record_snapshots. */
export interface RecordSnapshotRow {
  id: number;
  domain_id: number;
  record_type: 'dmarc' | 'spf';
  record_value: string | null;
  lookup_count: number | null;
  occurred_at: string;
}

/** The pass flags of a snapshot keyed by protocol. */
export function passFlags(row: HealthSnapshotRow): Record<Protocol, boolean> {
  return {
    dmarc: row.dmarc_pass === 1,
    spf: row.spf_pass === 1,
    mta_sts: row.mta_sts_pass === 1,
    tls_rpt: row.tls_rpt_pass === 1,
    bimi: row.bimi_pass === 1,
  };
}

/** The newest scan of a domain (latest scanned_at; the later row on ties), if any. */
export function latestSnapshot(db: ServiceDb, domainId: number): HealthSnapshotRow | undefined {
  return prepared<[number], HealthSnapshotRow>(
    db,
    'SELECT * FROM health_snapshots WHERE domain_id = ? ORDER BY scanned_at DESC, id DESC LIMIT 1',
  ).get(domainId);
}

/** Per-protocol rows of a snapshot. */
export function snapshotProtocols(db: ServiceDb, snapshotId: number): Map<Protocol, SnapshotProtocolRow> {
  const rows = prepared<[number], SnapshotProtocolRow>(
    db,
    'SELECT * FROM health_snapshot_protocols WHERE snapshot_id = ?',
  ).all(snapshotId);
  return new Map(rows.map((r) => [r.protocol, r]));
}

/** What a scan stores for one protocol. */
export interface ProtocolState {
  connection: Connection;
  pass: boolean;
  status: string;
  recordValue: string | null;
  lookupCount: number | null;
}

/** A new health snapshot with its per-protocol rows. */
export interface NewSnapshot {
  domainId: number;
  result: string;
  mailProvider: string;
  protocols: Record<Protocol, ProtocolState>;
  scannedAt: string;
}

/** Inserts a snapshot and its protocol rows; returns the snapshot id. Call inside a transaction. */
export function insertSnapshot(db: ServiceDb, s: NewSnapshot): number {
  const pass = (p: Protocol) => (s.protocols[p].pass ? 1 : 0);
  const passing = PROTOCOLS.filter((p) => s.protocols[p].pass).length;
  const id = Number(
    prepared(
      db,
      `INSERT INTO health_snapshots (domain_id, result, mail_provider, dmarc_pass, spf_pass, mta_sts_pass,
           tls_rpt_pass, bimi_pass, protocols_passing, dmarc_record, scanned_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      s.domainId,
      s.result,
      s.mailProvider,
      pass('dmarc'),
      pass('spf'),
      pass('mta_sts'),
      pass('tls_rpt'),
      pass('bimi'),
      passing,
      s.protocols.dmarc.recordValue,
      s.scannedAt,
    ).lastInsertRowid,
  );
  const insert = prepared(
    db,
    `INSERT INTO health_snapshot_protocols (snapshot_id, protocol, connection, pass, status, record_value, lookup_count)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const p of PROTOCOLS) {
    const st = s.protocols[p];
    insert.run(id, p, st.connection, st.pass ? 1 : 0, st.status, st.recordValue, st.lookupCount);
  }
  return id;
}

/** Inserts a connect/disconnect event; returns the stored row. Call inside a transaction. */
export function insertDnsEvent(db: ServiceDb, e: Omit<DnsEventRow, 'id'>): DnsEventRow {
  const id = Number(
    prepared(
      db,
      `INSERT INTO dns_events (domain_id, record_type, action, record_value, status_before, status_after, occurred_at)
         VALUES (@domain_id, @record_type, @action, @record_value, @status_before, @status_after, @occurred_at)`,
    ).run(e).lastInsertRowid,
  );
  return { id, ...e };
}

/** The newest DMARC or SPF snapshot of a domain, if any. */
export function latestRecordSnapshot(
  db: ServiceDb,
  domainId: number,
  recordType: 'dmarc' | 'spf',
): RecordSnapshotRow | undefined {
  return prepared<[number, string], RecordSnapshotRow>(
    db,
    `SELECT * FROM dns_record_snapshots WHERE domain_id = ? AND record_type = ?
       ORDER BY occurred_at DESC, id DESC LIMIT 1`,
  ).get(domainId, recordType);
}

/** Inserts a DMARC or SPF snapshot; returns its id. Call inside a transaction. */
export function insertRecordSnapshot(db: ServiceDb, s: Omit<RecordSnapshotRow, 'id'>): number {
  return Number(
    prepared(
      db,
      `INSERT INTO dns_record_snapshots (domain_id, record_type, record_value, lookup_count, occurred_at)
         VALUES (@domain_id, @record_type, @record_value, @lookup_count, @occurred_at)`,
    ).run(s).lastInsertRowid,
  );
}
