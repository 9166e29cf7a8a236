import { writeFileSync } from 'node:fs';
import { EXPORT_COLUMNS, exportRecord, toCsv } from '../../core/index.ts';
import type { CommonOptions } from '../args.ts';
import { openContext, selectAccounts } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';

/** `authwatch export --format csv|json [--out FILE]`: every domain's posture from the mirror. */
export async function exportCommand(
  options: CommonOptions & { format: 'csv' | 'json'; out?: string },
  io: CliIo,
): Promise<number> {
  const ctx = openContext(options, io);
  try {
    const ids = new Set(selectAccounts(ctx.app, options.label).map((a) => a.id));
    // Domains that left the account's list are exported too, marked by removed_at: their history is kept.
    const rows = ctx.app
      .domainPostures({ includeRemoved: true })
      .filter((r) => ids.has(r.accountId))
      .map(exportRecord);
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
