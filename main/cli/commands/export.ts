import { writeFileSync } from 'node:fs';
import type { OverviewRow } from '../../core/mirror/types.ts';
import type { CommonOptions } from '../args.ts';
import { openContext, selectAccounts } from '../context.ts';
import { toCsv } from '../csv.ts';
import { CommandFailed, type CliIo } from '../io.ts';

/** Columns of the export, in order. */
export const EXPORT_COLUMNS = [
  'account',
  'domain_id',
  'fqdn',
  'health_result',
  'protocols_passing',
  'total_protocols',
  'dmarc',
  'spf',
  'mta_sts',
  'tls_rpt',
  'bimi',
  'scanned_at',
  'score',
  'max_score',
  'score_interpretation',
  'open_alerts',
  'last_error',
] as const;

/** One domain's posture as a flat record. */
export function exportRecord(row: OverviewRow): Record<(typeof EXPORT_COLUMNS)[number], unknown> {
  const p = row.health?.protocols ?? {};
  return {
    account: row.accountLabel,
    domain_id: row.domainId,
    fqdn: row.fqdn,
    health_result: row.health?.result ?? null,
    protocols_passing: row.health?.passing ?? null,
    total_protocols: row.health?.total ?? null,
    dmarc: p.dmarc ?? null,
    spf: p.spf ?? null,
    mta_sts: p.mta_sts ?? null,
    tls_rpt: p.tls_rpt ?? null,
    bimi: p.bimi ?? null,
    scanned_at: row.health?.scannedAt ?? null,
    score: row.score?.score ?? null,
    max_score: row.score?.maxScore ?? null,
    score_interpretation: row.score?.interpretation ?? null,
    open_alerts: row.openAlerts,
    last_error: row.lastError ? `${row.lastError.signal}: ${row.lastError.code}` : null,
  };
}

/** `authwatch export --format csv|json [--out FILE]`: every domain's posture from the mirror. */
export async function exportCommand(
  options: CommonOptions & { format: 'csv' | 'json'; out?: string },
  io: CliIo,
): Promise<number> {
  const ctx = openContext(options, io);
  try {
    const ids = new Set(selectAccounts(ctx.mirror, options.label).map((a) => a.id));
    const rows = (await ctx.app.overview()).filter((r) => ids.has(r.accountId)).map(exportRecord);
    const text =
      options.format === 'csv' ? toCsv(EXPORT_COLUMNS, rows) : JSON.stringify(rows, null, 2) + '\n';
    if (options.out) {
      try {
        writeFileSync(options.out, text, { mode: 0o600 });
      } catch (error) {
        throw new CommandFailed(`Cannot write ${options.out}: ${(error as Error).message}`);
      }
      io.stderr.write(`authwatch: wrote ${rows.length} domains to ${options.out}\n`);
    } else {
      io.stdout.write(text);
    }
    return 0;
  } finally {
    await ctx.close();
  }
}
