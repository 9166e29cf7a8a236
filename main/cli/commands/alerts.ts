import { alertJson } from '../../core/export/records.ts';
import type { CommonOptions } from '../args.ts';
import { openContext, selectAccounts } from '../context.ts';
import type { CliIo } from '../io.ts';

/** `authwatch alerts [--json] [--open]`: alerts from the mirror, newest first. */
export async function alerts(
  options: CommonOptions & { json: boolean; open: boolean },
  io: CliIo,
): Promise<number> {
  const ctx = openContext(options, io);
  try {
    const labels = new Map(selectAccounts(ctx.mirror, options.label).map((a) => [a.id, a.label]));
    const list = (
      await ctx.app.listAlerts({ ...(options.open ? { open: true } : {}), limit: 10_000 })
    ).filter((a) => labels.has(a.accountId));
    if (options.json) {
      io.stdout.write(
        JSON.stringify(
          list.map((a) => alertJson(a, labels.get(a.accountId)!)),
          null,
          2,
        ) + '\n',
      );
      return 0;
    }
    if (list.length === 0) io.stdout.write(options.open ? 'No open alerts.\n' : 'No alerts.\n');
    for (const a of list) {
      const state = a.resolvedAt ? `resolved ${a.resolvedAt}` : 'OPEN';
      io.stdout.write(
        `#${a.id} [${a.severity}] ${a.fqdn ?? labels.get(a.accountId)} — ${a.title} (${a.rule}; since ${a.firstSeenAt}; ${state})\n`,
      );
    }
    return 0;
  } finally {
    await ctx.close();
  }
}
