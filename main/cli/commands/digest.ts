import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultDbPath, digestContent, digestHtml } from '../../core/index.ts';
import { UsageError, type CommonOptions } from '../args.ts';
import { openContext, selectAccounts } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';

/** `authwatch digest --preview --out FILE.html [--label NAME]`. */
export type DigestCommand = { name: 'digest'; out: string } & CommonOptions;

export const DIGEST_USAGE = `  digest --preview --out FILE.html
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
        db: { type: 'string' },
        label: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.preview || !values.out) throw new UsageError('digest needs --preview and --out FILE.html.');
  return {
    name: 'digest',
    out: values.out,
    db: values.db?.trim() || defaultDbPath(env),
    ...(values.label !== undefined ? { label: values.label } : {}),
  };
}

/** Writes the digest of the last seven days from the mirror, as it would be mailed. */
export async function digest(command: DigestCommand, io: CliIo): Promise<number> {
  const ctx = openContext(command, io);
  try {
    const accounts = selectAccounts(ctx.mirror, command.label);
    if (accounts.length !== 1)
      throw new UsageError(
        accounts.length === 0
          ? 'No account in the mirror yet.'
          : 'Several accounts: choose one with --label.',
      );
    const content = digestContent(ctx.mirror, accounts[0]!, Date.now());
    try {
      writeFileSync(command.out, digestHtml(content, ctx.mirror.getAlertSettings().timeZone));
    } catch (error) {
      throw new CommandFailed(`Cannot write ${command.out}: ${(error as Error).message}`);
    }
    io.stdout.write(`Wrote the weekly digest of “${accounts[0]!.label}” to ${command.out}.\n`);
    return 0;
  } finally {
    await ctx.close();
  }
}
