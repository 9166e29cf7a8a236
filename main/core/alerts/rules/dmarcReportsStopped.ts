import { z } from 'zod';
import { parseDmarcRecord } from '../../../../shared/email-auth/dmarcRecord.ts';
import { alertRule } from '../ruleDefinition.ts';
import { onLiveDmarcRecord, recordShowsEdit, type AppEdit } from '../ruleWrites.ts';
import { domainCondition } from '../transition.ts';

/** Where a scan's live DMARC record asks receivers to send aggregate reports, and when it was scanned. */
interface ReportAddresses {
  rua: readonly string[];
  /** scanned_at. */
  at: string;
  /** True when the record is the one the user published through this app's edit forms before the scan. */
  userSetIt?: boolean;
}

/** The report addresses of a scan's record; null when the scan has no record or it does not parse. */
function reportAddresses(record: string | null, at: string, edit: AppEdit = null): ReportAddresses | null {
  const parsed = record === null ? null : parseDmarcRecord(record).value;
  if (!parsed) return null;
  const tags = new Map(
    record!.split(';').map((t) => t.split('=').map((part) => part.trim()) as [string, string]),
  );
  return { rua: parsed.rua ?? [], at, userSetIt: recordShowsEdit(edit, at, tags) };
}

const rule = domainCondition({
  alerts: {
    dmarc_reports_stopped: {
      label: 'DMARC reports stopped',
      description:
        'The live DMARC record no longer asks for aggregate reports (rua removed); ends when it asks for them again.',
      severity: 'warning',
      details: z.strictObject({ ruaBefore: z.array(z.string()), scannedAt: z.string() }),
      words: 'DMARC reports stopped',
    },
  },
  kind: 'dmarc_reports_stopped',
  readAt: (reading: ReportAddresses) => reading.at,
  // A record the user published themselves through this app says nothing (they know).
  judge: ({ rua, userSetIt }) => (rua.length > 0 ? 'ok' : userSetIt ? null : 'bad'),
  raise: (now, before, domain) => ({
    title: `DMARC reports for ${domain.fqdn} stopped`,
    body: `The live DMARC record of ${domain.fqdn} no longer asks receivers for aggregate reports (it asked ${before!.rua.join(', ')}): mail volume, senders and threats sending as the domain will no longer be seen.`,
    details: { ruaBefore: [...before!.rua], scannedAt: now.at },
  }),
});

/**
 * dmarc_reports_stopped: between two health scans the live DMARC record stopped asking for aggregate reports
 * (its rua tag is gone or empty). Those reports are what the mail figures, the senders and the threat alerts
 * come from, so without them the domain goes quiet rather than looking wrong. One episode per domain; it
 * resolves when a scan's record asks for reports again. The first scan is a baseline, a record that is gone
 * or does not parse says nothing here (the protocol's own alerts tell that), and neither does a record the
 * user published themselves through this app's edit forms.
 */
export const dmarcReportsStopped = rule.run;

export default alertRule({
  ...rule,
  on: {
    health: onLiveDmarcRecord(reportAddresses),
  },
});
