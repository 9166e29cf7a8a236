import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  AuthwatchError,
  defaultDbPath,
  digestHtml,
  isTimeZone,
  parseWeeklyTime,
  type Account,
} from '../../core/index.ts';
import { UsageError, type CommonOptions } from '../args.ts';
import { openContext, selectAccounts, type CliContext } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';

/** `authwatch digest …`: preview the weekly digest, schedule its mailing, turn it off, or show schedules. */
export type DigestCommand = { name: 'digest' } & CommonOptions &
  (
    | { action: 'preview'; out: string }
    | { action: 'schedule'; weekday: number; hour: number; minute: number; zone?: string; channel: string }
    | { action: 'off' }
    | { action: 'show'; json: boolean }
  );

export const DIGEST_USAGE = `  digest [--json]           the weekly digest schedules: when, by which channel, the last one sent
  digest --schedule "DAY HH:MM" --channel NAME [--zone ZONE] [--label NAME]
                            mail the account's weekly digest by that email channel every week at
                            that day and time in ZONE (default: the time zone of Settings, else
                            the machine's), e.g. --schedule "mon 08:00" --zone Europe/Berlin;
                            a week missed while nothing ran is mailed at the next start, once
  digest --off [--label NAME]   stop mailing it
  digest --preview --out FILE.html
                            the weekly digest of an account (--label), written locally`;

/** Parses the arguments after `digest`. */
export function parseDigestArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DigestCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        preview: { type: 'boolean' },
        out: { type: 'string' },
        schedule: { type: 'string' },
        zone: { type: 'string' },
        channel: { type: 'string' },
        off: { type: 'boolean' },
        json: { type: 'boolean' },
        db: { type: 'string' },
        label: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const common: CommonOptions = {
    db: values.db?.trim() || defaultDbPath(env),
    ...(values.label !== undefined ? { label: values.label } : {}),
  };
  const actions = [values.preview, values.schedule !== undefined, values.off].filter(Boolean).length;
  if (actions > 1) throw new UsageError('digest takes one of --preview, --schedule or --off.');
  if (values.preview || values.out !== undefined) {
    if (!values.preview || !values.out) throw new UsageError('digest needs --preview and --out FILE.html.');
    return { name: 'digest', action: 'preview', out: values.out, ...common };
  }
  if (values.schedule !== undefined) {
    const time = parseWeeklyTime(values.schedule);
    if (!time)
      throw new UsageError(
        `--schedule takes a day and a time, e.g. "mon 08:00" (days: sun mon tue wed thu fri sat), not “${values.schedule}”.`,
      );
    if (!values.channel) throw new UsageError('digest --schedule needs --channel NAME (an email channel).');
    if (values.zone !== undefined && !isTimeZone(values.zone))
      throw new UsageError(`--zone takes a time zone such as Europe/Berlin or UTC, not “${values.zone}”.`);
    return {
      name: 'digest',
      action: 'schedule',
      ...time,
      channel: values.channel,
      ...(values.zone !== undefined ? { zone: values.zone } : {}),
      ...common,
    };
  }
  if (values.zone !== undefined || values.channel !== undefined)
    throw new UsageError('--zone and --channel go with digest --schedule.');
  if (values.off) return { name: 'digest', action: 'off', ...common };
  return { name: 'digest', action: 'show', json: values.json === true, ...common };
}

/** The one account a digest command is about: --label, or the only one. */
function oneAccount(ctx: CliContext, label: string | undefined): Account {
  const accounts = selectAccounts(ctx.app, label);
  if (accounts.length !== 1)
    throw new UsageError(
      accounts.length === 0 ? 'No account in the mirror yet.' : 'Several accounts: choose one with --label.',
    );
  return accounts[0]!;
}

/** Runs `authwatch digest …`. */
export async function digest(command: DigestCommand, io: CliIo): Promise<number> {
  const ctx = openContext(command, io);
  try {
    switch (command.action) {
      case 'preview': {
        const account = oneAccount(ctx, command.label);
        const content = ctx.app.digestOf(account, Date.now());
        try {
          writeFileSync(command.out, digestHtml(content, ctx.app.alertSettings().timeZone));
        } catch (error) {
          throw new CommandFailed(`Cannot write ${command.out}: ${(error as Error).message}`);
        }
        io.stdout.write(`Wrote the weekly digest of “${account.label}” to ${command.out}.\n`);
        return 0;
      }
      case 'schedule': {
        const account = oneAccount(ctx, command.label);
        const channel = ctx.app.channels.find(command.channel);
        if (!channel)
          throw new CommandFailed(`No channel named “${command.channel}” (see authwatch channels list).`);
        const timeZone =
          command.zone ??
          ctx.app.alertSettings().timeZone ??
          Intl.DateTimeFormat().resolvedOptions().timeZone;
        const saved = await failsInWords(() =>
          ctx.app.saveDigest({
            accountId: account.id,
            channelId: channel.id,
            weekday: command.weekday,
            hour: command.hour,
            minute: command.minute,
            timeZone,
          }),
        );
        io.stdout.write(
          `The weekly digest of “${saved.account}” goes to “${saved.channel}” ${saved.when}; ` +
            `next ${saved.nextAt}. A running sync --watch or the app sends it.\n`,
        );
        return 0;
      }
      case 'off': {
        const account = oneAccount(ctx, command.label);
        const { removed } = await ctx.app.removeDigest({ accountId: account.id });
        io.stdout.write(
          removed
            ? `The weekly digest of “${account.label}” is no longer mailed.\n`
            : `No weekly digest was scheduled for “${account.label}”.\n`,
        );
        return 0;
      }
      case 'show': {
        const accounts = selectAccounts(ctx.app, command.label).map((a) => a.id);
        const list = (await ctx.app.listDigests()).filter((d) => accounts.includes(d.accountId));
        if (command.json) {
          io.stdout.write(JSON.stringify(list, null, 2) + '\n');
          return 0;
        }
        if (list.length === 0)
          io.stdout.write('No weekly digest is mailed. Schedule one with authwatch digest --schedule.\n');
        for (const d of list) {
          const last = d.lastError
            ? `failing since ${d.lastErrorAt}: ${d.lastError}`
            : d.lastSentAt
              ? `last sent ${d.lastSentAt}`
              : 'none sent yet';
          io.stdout.write(`${d.account}: ${d.when} to “${d.channel}”; next ${d.nextAt}; ${last}\n`);
        }
        return 0;
      }
    }
  } finally {
    await ctx.close();
  }
}

/** A facade refusal (a channel that is not email, an unknown zone) is a plain failure line. */
async function failsInWords<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AuthwatchError) throw new CommandFailed(error.message);
    throw error;
  }
}
