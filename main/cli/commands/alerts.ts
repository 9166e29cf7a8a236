import { type Alert, alertJson, type Authwatch } from '../../core/index.ts';
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
    const labels = new Map(selectAccounts(ctx.app, options.label).map((a) => [a.id, a.label]));
    // The mirror's own rows: they say why an alert ended, which the bridge's summary leaves out.
    const list = ctx.app
      .alertRecords({ ...(options.open ? { open: true } : {}), limit: 'all' })
      .filter((a) => labels.has(a.accountId));
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
    const now = new Date().toISOString();
    for (const a of list) {
      const state = alertState(a) + lifecycleWords(ctx.app, a, now);
      io.stdout.write(
        `#${a.id} [${a.severity}] ${a.fqdn ?? labels.get(a.accountId)} — ${a.title} (${a.rule}; since ${a.firstSeenAt}; ${state})\n`,
      );
    }
    return 0;
  } finally {
    await ctx.close();
  }
}

/** The silence holding an open alert back, and the latest acknowledgement's who and note, in words. */
function lifecycleWords(app: Authwatch, a: Alert, now: string): string {
  const hold = a.resolvedAt === null ? app.alertHold(a, now) : null;
  const silenced = hold ? `; silenced by ${hold.author} (“${hold.label}”) until ${hold.endsAt}` : '';
  const ack = a.acknowledgedAt
    ? app.acknowledgementHistory(a.id).findLast((e) => e.action === 'acknowledged')
    : undefined;
  return silenced + (ack ? `; acknowledged by ${ack.actor}${ack.note ? `: “${ack.note}”` : ''}` : '');
}

/** How an alert stands, in words: open, or how and when it ended. */
function alertState(a: Alert): string {
  switch (a.endReason) {
    case 'cause_ended':
      return `resolved ${a.resolvedAt}: cause ended`;
    case 'notice':
      return `notice ${a.resolvedAt}`;
    case 'domain_removed':
      return `OPEN, domain removed from the account ${a.endedAt}`;
    case 'acknowledged':
      return `OPEN, acknowledged ${a.endedAt}`;
    default:
      return a.resolvedAt ? `resolved ${a.resolvedAt}` : 'OPEN';
  }
}
