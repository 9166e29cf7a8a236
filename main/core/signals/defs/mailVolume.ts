import { json, orNull } from '../../mirror/signalRows.ts';
import { prepared } from '../../../../shared/sqlite/preparedStatements.ts';
import { isObj, notAbove, rows, VOLUME_PARTS, windowIssues } from '../consistency.ts';
import { domainSignal } from '../definition.ts';
import { mailVolumeSchema } from '../mailVolume.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** Daily mail volume from DMARC aggregate reports (GET .../mail-volume): read when the domain is opened. */
const mailVolume = domainSignal({
  scope: 'domains:read',
  fetch: { path: '/domains/{domain_id}/mail-volume', windowed: true, notFound: 'domain_gone' },
  schema: mailVolumeSchema,
  crossCheck(value, out) {
    windowIssues(value, out);
    if (isObj(value.totals)) {
      for (const part of VOLUME_PARTS) notAbove(value.totals, part, 'total', 'totals.', out);
    }
    rows(value.timeline).forEach((row, i) => {
      if (isObj(row)) for (const part of VOLUME_PARTS) notAbove(row, part, 'total', `timeline.${i}.`, out);
    });
  },
  plan: { role: 'on_demand', tier: 'history', priority: 4, periodSeconds: 6 * 3600 },
  words: 'How much mail passes and fails each day',
  store(db, payload, target) {
    const insert = prepared(
      db,
      `INSERT INTO mail_volume_days (domain_id, date, total, delivered, quarantined, rejected, dmarc_pass, dmarc_fail,
         raw_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (domain_id, date) DO UPDATE SET total = excluded.total, delivered = excluded.delivered,
         quarantined = excluded.quarantined, rejected = excluded.rejected, dmarc_pass = excluded.dmarc_pass,
         dmarc_fail = excluded.dmarc_fail, raw_json = excluded.raw_json, fetched_at = excluded.fetched_at`,
    );
    for (const day of payload.timeline) {
      insert.run(
        target.domainPk,
        day.date,
        orNull(day.total),
        orNull(day.delivered),
        orNull(day.quarantined),
        orNull(day.rejected),
        orNull(day.dmarc_pass),
        orNull(day.dmarc_fail),
        json(day),
        target.fetchedAt,
      );
    }
  },
  lastSeenSql: 'SELECT max(date) AS v FROM mail_volume_days WHERE domain_id = ?',
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    mail_volume: typeof mailVolume;
  }
}

export default declareSignal('mail_volume', mailVolume);
