import { parseArgs } from 'node:util';
import { defaultDbPath, urlCarriesSecret } from '../core/index.ts';
import type { CommonOptions } from './args.ts';
import { caFileOption, UsageError } from './args.ts';

/** `authwatch channels …` parsed. */
export type ChannelsCommand = { name: 'channels' } & CommonOptions &
  (
    | {
        action: 'add';
        kind: 'email' | 'webhook' | 'alertmanager';
        channel: string;
        smtp?: string;
        from?: string;
        to?: string[];
        passwordEnv?: string;
        url?: string;
        urlEnv?: string;
        format?: string;
        secretEnv?: string;
        minSeverity?: string;
        account?: string;
        holdCriticals: boolean;
        resendSeconds?: number;
      }
    | { action: 'list'; json: boolean }
    | { action: 'test'; channel: string }
    | { action: 'remove'; channel: string; withDigest: boolean }
  );

export const CHANNELS_USAGE = `  channels add email --name NAME --smtp smtp://USER@HOST:PORT --from ADDR --to ADDR[,ADDR]
                 [--password-env VAR] [--min-severity S] [--account LABEL] [--hold-criticals]
  channels add webhook --name NAME --url URL | --url-env VAR [--format generic|slack|teams]
                 [--secret-env VAR] [--min-severity S] [--account LABEL] [--hold-criticals]
  channels add alertmanager --name NAME --url URL | --url-env VAR [--min-severity S]
                 [--account LABEL] [--resend-seconds N]
  channels list [--json] | test NAME | remove NAME [--with-digest]
                            where alerts go beyond the window (S: critical, warning or info;
                            default warning); secrets named by *-env are read from that variable
                            now and kept in the OS keychain, or read from it at every run where no
                            keychain answers; a URL that carries a secret (Slack, Teams, or any URL
                            with user:password@ or a ?query) is refused after --url: every user of
                            the machine sees a command's arguments, so name its variable with
                            --url-env; a channel that mails a weekly digest is removed
                            only with --with-digest (the digest stops too) or after the digest
                            moved to another channel`;

/** Parses the arguments after `channels`. */
export function parseChannelsArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ChannelsCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        smtp: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        'password-env': { type: 'string' },
        url: { type: 'string' },
        'url-env': { type: 'string' },
        format: { type: 'string' },
        'secret-env': { type: 'string' },
        'min-severity': { type: 'string' },
        account: { type: 'string' },
        'hold-criticals': { type: 'boolean' },
        'resend-seconds': { type: 'string' },
        'with-digest': { type: 'boolean' },
        json: { type: 'boolean' },
        db: { type: 'string' },
        label: { type: 'string' },
        'ca-file': { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values: v, positionals } = parsed;
  const common: CommonOptions = { db: v.db?.trim() || defaultDbPath(env) };
  if (v.label !== undefined) common.label = v.label;
  Object.assign(common, caFileOption(v['ca-file']));
  const [action, arg, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra[0]}`);
  switch (action) {
    case 'list':
      if (arg) throw new UsageError(`Unexpected argument: ${arg}`);
      return { name: 'channels', action, json: v.json === true, ...common };
    case 'test':
    case 'remove':
      if (!arg) throw new UsageError(`channels ${action} needs the channel's name.`);
      if (action === 'remove')
        return { name: 'channels', action, channel: arg, withDigest: v['with-digest'] === true, ...common };
      return { name: 'channels', action, channel: arg, ...common };
    case 'add': {
      if (arg !== 'email' && arg !== 'webhook' && arg !== 'alertmanager')
        throw new UsageError('channels add takes email, webhook or alertmanager.');
      if (!v.name) throw new UsageError('channels add needs --name NAME.');
      if (arg === 'email' && (!v.smtp || !v.from || !v.to))
        throw new UsageError('channels add email needs --smtp, --from and --to.');
      if (arg === 'alertmanager' && !v.url && !v['url-env'])
        throw new UsageError('channels add alertmanager needs --url (or --url-env VAR).');
      if (v.url !== undefined) refuseSecretUrl(v.url, arg === 'webhook' ? (v.format ?? 'generic') : arg);
      let resendSeconds: number | undefined;
      if (v['resend-seconds'] !== undefined) {
        resendSeconds = Number(v['resend-seconds']);
        if (!Number.isInteger(resendSeconds)) throw new UsageError('--resend-seconds takes a whole number.');
      }
      return {
        name: 'channels',
        action,
        kind: arg,
        channel: v.name,
        ...(v.smtp !== undefined ? { smtp: v.smtp } : {}),
        ...(v.from !== undefined ? { from: v.from } : {}),
        ...(v.to !== undefined ? { to: v.to.split(',') } : {}),
        ...(v['password-env'] !== undefined ? { passwordEnv: v['password-env'] } : {}),
        ...(v.url !== undefined ? { url: v.url } : {}),
        ...(v['url-env'] !== undefined ? { urlEnv: v['url-env'] } : {}),
        ...(v.format !== undefined ? { format: v.format } : {}),
        ...(v['secret-env'] !== undefined ? { secretEnv: v['secret-env'] } : {}),
        ...(v['min-severity'] !== undefined ? { minSeverity: v['min-severity'] } : {}),
        ...(v.account !== undefined ? { account: v.account } : {}),
        holdCriticals: v['hold-criticals'] === true,
        ...(resendSeconds !== undefined ? { resendSeconds } : {}),
        ...common,
      };
    }
    default:
      throw new UsageError('channels takes add, list, test or remove.');
  }
}

/**
 * A URL that carries a secret (Slack and Teams URLs are the credential; any URL with credentials or a query)
 * is refused as an argument, as the API token is: `ps` and the shell history show arguments to every user.
 */
function refuseSecretUrl(value: string, kind: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return; // Not a URL: the channel's own check says so.
  }
  const why =
    kind === 'slack' || kind === 'teams'
      ? `a ${kind === 'slack' ? 'Slack' : 'Teams'} webhook URL is its own secret`
      : urlCarriesSecret(url)
        ? 'this URL carries a secret (user:password@ or a ?query)'
        : null;
  if (why)
    throw new UsageError(
      `${why}, and every user of this machine can read a command's arguments (ps, shell history). ` +
        'Put the URL in an environment variable and name it with --url-env VAR.',
    );
}
