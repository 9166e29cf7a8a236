import {
  type Channel,
  type ChannelDraft,
  ChannelInUseError,
  DeliveryError,
  describeChannel,
  type Severity,
  WEEKDAYS,
} from '../../core/index.ts';
import type { ChannelsCommand } from '../channelArgs.ts';
import { openContext, selectAccounts } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';

/** `authwatch channels add|list|test|remove`. */
export async function channels(command: ChannelsCommand, io: CliIo): Promise<number> {
  const ctx = openContext(command, io);
  try {
    const service = ctx.app.channels;
    const named = (name: string): Channel => {
      const channel = service.find(name);
      if (!channel) throw new CommandFailed(`No channel named “${name}” (see authwatch channels list).`);
      return channel;
    };
    switch (command.action) {
      case 'list': {
        const list = service.list();
        const labels = new Map(ctx.app.storedAccounts().map((a) => [a.id, a.label]));
        if (command.json) {
          io.stdout.write(
            JSON.stringify(
              list.map((c) => channelJson(c, labels)),
              null,
              2,
            ) + '\n',
          );
          return 0;
        }
        if (list.length === 0) io.stdout.write('No channels. Add one with authwatch channels add.\n');
        for (const c of list) io.stdout.write(channelLine(c, labels) + '\n');
        return 0;
      }
      case 'test': {
        const result = await service.test(named(command.channel).id);
        if (!result.ok)
          throw new CommandFailed(`The test message to “${command.channel}” failed: ${result.error}`);
        io.stdout.write(`Sent a test message to “${command.channel}”.\n`);
        return 0;
      }
      case 'remove': {
        const channel = named(command.channel);
        let removed;
        try {
          removed = await service.remove(channel.id, { withDigests: command.withDigest });
        } catch (error) {
          if (error instanceof ChannelInUseError) throw new CommandFailed(inUseWords(error));
          throw error;
        }
        io.stdout.write(`Removed channel “${command.channel}” and what it still had queued.\n`);
        for (const d of removed.digests)
          io.stdout.write(`The weekly digest of “${d.account}” (${d.when}) is no longer mailed.\n`);
        return 0;
      }
      case 'add': {
        const accountId =
          command.account === undefined ? null : selectAccounts(ctx.app, command.account)[0]!.id;
        const draft = draftOf(command, accountId, io.env);
        try {
          const saved = await service.add(draft);
          for (const notice of saved.notices) io.stderr.write(`authwatch: ${notice}\n`);
          io.stdout.write(`Added channel “${saved.channel.name}” (${describeChannel(saved.channel)}).\n`);
        } catch (error) {
          if (error instanceof DeliveryError) throw new CommandFailed(error.message);
          throw error;
        }
        return 0;
      }
    }
  } finally {
    await ctx.close();
  }
}

/** The refusal, with the two commands that resolve it: move each digest, or remove both. */
function inUseWords(error: ChannelInUseError): string {
  const moves = error.digests.map(
    (d) =>
      `  authwatch digest --schedule "${WEEKDAYS[d.slot.weekday]} ${String(d.slot.hour).padStart(2, '0')}:` +
      `${String(d.slot.minute).padStart(2, '0')}" --zone ${d.slot.timeZone} --channel OTHER --label ${shellWord(d.account)}`,
  );
  return [
    error.message,
    'To keep the digest, mail it by another email channel:',
    ...moves,
    'To stop it with the channel:',
    `  authwatch channels remove ${shellWord(error.channel)} --with-digest`,
  ].join('\n');
}

/** A word as a POSIX shell reads it back (quoted when it holds anything but safe characters). */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The draft of `channels add`: secrets named by *-env are read from the environment now. */
function draftOf(
  c: Extract<ChannelsCommand, { action: 'add' }>,
  accountId: number | null,
  env: NodeJS.ProcessEnv,
): ChannelDraft {
  const fromEnv = (name: string | undefined, what: string): string | undefined => {
    if (name === undefined) return undefined;
    const value = env[name];
    if (!value) throw new CommandFailed(`${what}: the environment variable ${name} is not set.`);
    return value;
  };
  const base = {
    name: c.channel,
    accountId,
    holdCriticals: c.holdCriticals,
    ...(c.minSeverity !== undefined ? { minSeverity: c.minSeverity as Severity } : {}),
  };
  switch (c.kind) {
    case 'email': {
      const password = fromEnv(c.passwordEnv, '--password-env');
      return {
        ...base,
        kind: 'email',
        smtp: c.smtp!,
        from: c.from!,
        to: c.to!,
        ...(password ? { password } : {}),
        ...(c.passwordEnv ? { passwordEnv: c.passwordEnv } : {}),
      };
    }
    case 'webhook': {
      const secret = fromEnv(c.secretEnv, '--secret-env');
      const url = c.url ?? fromEnv(c.urlEnv, '--url-env');
      return {
        ...base,
        kind: 'webhook',
        ...(c.format !== undefined ? { format: c.format as 'generic' } : {}),
        ...(url ? { url } : {}),
        ...(c.urlEnv ? { urlEnv: c.urlEnv } : {}),
        ...(secret ? { secret } : {}),
        ...(c.secretEnv ? { secretEnv: c.secretEnv } : {}),
      };
    }
    case 'alertmanager': {
      const url = c.url ?? fromEnv(c.urlEnv, '--url-env');
      return {
        ...base,
        kind: 'alertmanager',
        ...(url ? { url } : {}),
        ...(c.urlEnv ? { urlEnv: c.urlEnv } : {}),
        ...(c.resendSeconds !== undefined ? { resendSeconds: c.resendSeconds } : {}),
      };
    }
  }
}

function channelLine(c: Channel, labels: Map<number, string>): string {
  const scope = c.accountId === null ? 'all accounts' : `account ${labels.get(c.accountId) ?? c.accountId}`;
  const state = c.lastError
    ? `failing since ${c.lastErrorAt}: ${c.lastError}`
    : c.lastSuccessAt
      ? `last delivered ${c.lastSuccessAt}`
      : 'nothing sent yet';
  return `${c.name}: ${describeChannel(c)}; ${c.minSeverity} and above, ${scope}; ${c.queued} queued; ${state}`;
}

function channelJson(c: Channel, labels: Map<number, string>) {
  return {
    name: c.name,
    kind: c.kind,
    target: describeChannel(c),
    min_severity: c.minSeverity,
    account: c.accountId === null ? null : (labels.get(c.accountId) ?? null),
    hold_criticals: c.holdCriticals,
    queued: c.queued,
    last_success_at: c.lastSuccessAt,
    last_error: c.lastError,
    last_error_at: c.lastErrorAt,
  };
}
