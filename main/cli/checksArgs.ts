import { parseArgs } from 'node:util';
import { defaultDbPath } from '../core/index.ts';
import type { CommonOptions } from './args.ts';
import { UsageError } from './args.ts';

/**
 * `authwatch checks [--json] [--domain D | --app]`. `app`: the app's and accounts' own checks alone — a mode of
 * its own so that `--json` can give them without changing the per-domain array scripts already read.
 */
export type ChecksCommand = { name: 'checks'; json: boolean; app: boolean; domain?: string } & CommonOptions;

/** Parses the arguments after `checks`. */
export function parseChecksArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ChecksCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        json: { type: 'boolean' },
        domain: { type: 'string' },
        app: { type: 'boolean' },
        db: { type: 'string' },
        label: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  const domain = v.domain?.trim().toLowerCase().replace(/\.$/, '');
  if (v.domain !== undefined && !domain) throw new UsageError('--domain needs a domain name.');
  if (v.app && v.domain !== undefined) {
    throw new UsageError('--app shows the checks of no domain; leave out --domain.');
  }
  return {
    name: 'checks',
    json: v.json === true,
    app: v.app === true,
    ...(domain ? { domain } : {}),
    db: v.db?.trim() || defaultDbPath(env),
    ...(v.label ? { label: v.label } : {}),
  };
}
