import {
  AuthwatchError,
  parseDuration,
  parseUntil,
  type Severity,
  type SilenceView,
} from '../../core/index.ts';
import { openContext, selectAccounts } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';
import type { SilencesCommand } from '../lifecycleArgs.ts';

/** `authwatch silences add|list|expire`: the same silences as the app's, made by the OS user. */
export async function silences(command: SilencesCommand, io: CliIo): Promise<number> {
  const ctx = openContext(command, io);
  try {
    switch (command.action) {
      case 'list': {
        const list = await ctx.app.listSilences();
        if (command.json) {
          io.stdout.write(JSON.stringify(list, null, 2) + '\n');
          return 0;
        }
        if (list.length === 0) io.stdout.write('No silences. Add one with authwatch silences add.\n');
        for (const s of list) io.stdout.write(silenceLine(s) + '\n');
        return 0;
      }
      case 'expire': {
        const s = await inWords(ctx.app.expireSilence({ id: command.id }));
        io.stdout.write(
          `Silence ${s.id} ended ${s.endsAt}; what it held and is still open is notified now.\n`,
        );
        return 0;
      }
      case 'add': {
        const now = Date.now();
        const zone = ctx.app.alertSettings().timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
        const endsAt = endOf(command, now, zone);
        const accountId =
          command.account === undefined ? undefined : selectAccounts(ctx.app, command.account)[0]!.id;
        const s = await inWords(
          ctx.app.saveSilence({
            matchers: {
              ...(command.domain !== undefined ? { domain: command.domain } : {}),
              ...(command.group !== undefined ? { group: command.group } : {}),
              ...(command.rule !== undefined ? { rule: command.rule } : {}),
              ...(command.protocol !== undefined ? { protocol: command.protocol } : {}),
              ...(command.severity !== undefined ? { severities: [command.severity as Severity] } : {}),
              ...(accountId !== undefined ? { accountId } : {}),
            },
            reason: command.reason,
            startsAt: new Date(now).toISOString(),
            endsAt: new Date(endsAt).toISOString(),
          }),
        );
        io.stdout.write(
          `Added silence ${s.id}: ${s.matches}, until ${s.endsAt} (${zone}: ${localTime(s.endsAt, zone)}).\n`,
        );
        return 0;
      }
    }
  } finally {
    await ctx.close();
  }
}

function endOf(c: Extract<SilencesCommand, { action: 'add' }>, now: number, zone: string): number {
  if (c.for !== undefined) {
    const ms = parseDuration(c.for);
    if (ms === null) throw new CommandFailed(`--for takes a duration such as 90m, 2h or 3d, not “${c.for}”.`);
    return now + ms;
  }
  const at = parseUntil(c.until!, now, zone);
  if (at === null)
    throw new CommandFailed(
      `--until takes a day and time ("mon 08:00"), a time ("18:30") or a date and time ("2026-12-01 08:00"), not “${c.until}”.`,
    );
  return at;
}

async function inWords<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof AuthwatchError) throw new CommandFailed(error.message);
    throw error;
  }
}

function localTime(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(
    Date.parse(iso),
  );
}

function silenceLine(s: SilenceView): string {
  const ended = s.expiredAt ? `expired early by ${s.expiredBy} ${s.expiredAt}` : `until ${s.endsAt}`;
  return `#${s.id} [${s.state}] ${s.matches} — ${s.reason} (by ${s.author}; from ${s.startsAt}, ${ended})`;
}
