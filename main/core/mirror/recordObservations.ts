import type { Database } from 'better-sqlite3';
import type { Protocol } from '../signals/primitives.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';
import type { RecordObservation } from '../alerts/recordChange.ts';

/** A protocol's record as some signal saw it at some time (null: no record published then). */
export type { RecordObservation };

/**
 * Every value of a protocol's record the mirror holds, oldest first, whichever signal brought it: DNS events
 * (a connect carries the record), the record history and snapshots, the current records, and for DMARC the
 * health scans. Lets an alert show the record before and after the change it is about.
 */
export function recordObservations(db: Database, domainPk: number, protocol: Protocol): RecordObservation[] {
  const rows = prepared(
    db,
    `SELECT occurred_at AS at, record_value AS value FROM dns_events WHERE domain_id = @pk AND record_type = @p
     UNION ALL
     SELECT occurred_at, record_value FROM dns_record_history WHERE domain_id = @pk AND record_type = @p
     UNION ALL
     SELECT occurred_at, record_value FROM dns_snapshots WHERE domain_id = @pk AND record_type = @p
     UNION ALL
     SELECT fetched_at, CASE WHEN current_status = 'disconnected' THEN NULL ELSE record_value END
       FROM dns_current WHERE domain_id = @pk AND protocol = @p
     UNION ALL
     SELECT scanned_at, dmarc_record FROM health_snapshots WHERE domain_id = @pk AND @p = 'dmarc'`,
  ).all({ pk: domainPk, p: protocol }) as RecordObservation[];
  return rows.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
