import {
  defaultDbPath,
  parseServer,
  PASS_BASE_TIME_LIMIT_MS,
  PASS_RATE_LIMIT_PATIENCE_MS,
} from '../core/index.ts';
import { parseArgs } from 'node:util';
import { CHANNELS_USAGE, parseChannelsArgs, type ChannelsCommand } from './channelArgs.ts';
import { parseChecksArgs, type ChecksCommand } from './checksArgs.ts';
import { DIGEST_USAGE, parseDigestArgs, type DigestCommand } from './commands/digest.ts';
import {
  LIFECYCLE_USAGE,
  parseAckArgs,
  parseMaintenanceArgs,
  parseRoutesArgs,
  parseSilencesArgs,
  type AckCommand,
  type MaintenanceCommand,
  type RoutesCommand,
  type SilencesCommand,
} from './lifecycleArgs.ts';

/** Raised for a command line we cannot run; the CLI prints the message and exits with status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Options every command shares. */
export interface CommonOptions {
  /** Mirror database file. */
  db: string;
  /** Base URL of the v1 interface, when given. */
  baseUrl?: string;
  /** Account label, when given. */
  label?: string;
  /** `--ca-file FILE`: extra certificate authorities every TLS connection trusts (AUTHWATCH_EXTRA_CA). */
  caFile?: string;
}

/** `sync --watch --metrics-port PORT [--metrics-host HOST] [--metrics-token-env VAR]`. */
export interface MetricsOptions {
  port: number;
  host: string;
  tokenEnv?: string;
}

/** A parsed command line. */
export type Command =
  | ({
      name: 'sync';
      mode: 'once' | 'watch';
      metrics?: MetricsOptions;
      dnsServers: string[];
      /** `--group-wait SECONDS`: how long a watching sync gathers alerts before sending (default 20 s). */
      groupWaitMs?: number;
    } & CommonOptions)
  | ({ name: 'status'; json: boolean } & CommonOptions)
  | ({ name: 'alerts'; json: boolean; open: boolean } & CommonOptions)
  | ({ name: 'export'; format: 'csv' | 'json'; out?: string } & CommonOptions)
  | ChannelsCommand
  | DigestCommand
  | SilencesCommand
  | AckCommand
  | RoutesCommand
  | MaintenanceCommand
  | ChecksCommand
  | { name: 'help' };

const PATIENCE = `${PASS_RATE_LIMIT_PATIENCE_MS / 60_000} min`;
const PASS_LIMIT = `${PASS_BASE_TIME_LIMIT_MS / 60_000} min`;

export const USAGE = `Usage: authwatch <command> [options]

Commands:
  sync --once | --watch [--metrics-port PORT [--metrics-host HOST] [--metrics-token-env VAR]]
                            one full sync now, or keep syncing on the schedule until interrupted;
                            --once waits out rate limiting (429) for at most ${PATIENCE} with nothing
                            getting through, then exits 1 "rate limited" (--watch keeps backing off);
                            a refused connection stops it at once ("service unreachable"), and the
                            whole pass stops after ${PASS_LIMIT} plus twice the budget's time for its
                            signals ("time limit"), naming what was not synced
                            --dns-server HOST[:PORT] (repeatable): the resolvers the DNS watch asks
                            (default: the app's setting, else the system's); --watch runs the watch
                            beside the sync, --once with --dns-server checks every record once
                            --group-wait SECONDS (--watch): alerts found one poll after another are
                            sent together once none came for this long (default 20)
  status [--json]           accounts, sync freshness, effective periods and errors, the DNS watch
  alerts [--json] [--open]  alerts from the local mirror (--open: unresolved only)
  checks [--json] [--domain D | --app]
                            each live check's last result (MTA-STS over HTTPS, MX STARTTLS…): what it
                            saw, when, and what is wrong, from the local mirror (--app: only the
                            accounts' API tokens and the app's delivery channels)
  export --format csv|json  every domain's posture from the local mirror [--out FILE]
${CHANNELS_USAGE}
${DIGEST_USAGE}
${LIFECYCLE_USAGE}

Options:
  --db FILE        mirror database (default $AUTHWATCH_DB or ~/.authwatch/mirror.db)
  --base-url URL   the v1 interface, e.g. https://host/api/v1 (adds the account when new)
  --label NAME     which account (default: the only one, or "default" for a new one)
  --ca-file FILE   extra certificate authorities (PEM) to trust, e.g. a TLS-inspecting proxy's
                   (default $AUTHWATCH_EXTRA_CA); proxies come from HTTPS_PROXY, HTTP_PROXY, NO_PROXY
  -h, --help       this text

The API token comes from the OS keychain or the AUTHWATCH_TOKEN environment variable, never from a flag.

Exit status: 0 ok, 1 failure (sync errors, account paused, I/O), 2 usage error.`;

const TOKEN_REFUSAL =
  'authwatch does not accept the API token as a command-line option: arguments are visible to every user ' +
  'of the machine (ps) and are kept in shell history. Set the AUTHWATCH_TOKEN environment variable, or ' +
  'store the token in the OS keychain through the desktop app.';

/** Commands that parse their own options. */
const OWN_PARSERS = new Map<string, (argv: readonly string[], env: NodeJS.ProcessEnv) => Command>([
  ['channels', parseChannelsArgs],
  ['digest', parseDigestArgs],
  ['silences', parseSilencesArgs],
  ['ack', parseAckArgs],
  ['routes', parseRoutesArgs],
  ['maintenance', parseMaintenanceArgs],
  ['checks', parseChecksArgs],
]);

/** Options every command takes that carry a value as the next argument (`--db FILE`). */
const SHARED_WITH_VALUE = new Set(['--db', '--base-url', '--label', '--ca-file']);

/** Where the command's name stands: the first argument that is neither an option nor an option's value. */
function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (SHARED_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) return i;
  }
  return -1;
}

/** Parses argv (without node and script) into a Command, or throws UsageError. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  // Checked before parsing so the refusal explains itself even when other options are wrong too.
  if (argv.some((arg) => /^--?token(=|$)/i.test(arg) || /^--api-token(=|$)/i.test(arg))) {
    throw new UsageError(TOKEN_REFUSAL);
  }
  // Subcommands with options of their own parse them themselves, with the options every command shares
  // wherever they stand: `authwatch --db X channels list` as `authwatch channels list --db X`.
  const at = commandIndex(argv);
  const parseOwn = OWN_PARSERS.get(argv[at] ?? '');
  if (parseOwn) return parseOwn([...argv.slice(at + 1), ...argv.slice(0, at)], env);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        once: { type: 'boolean' },
        watch: { type: 'boolean' },
        json: { type: 'boolean' },
        open: { type: 'boolean' },
        format: { type: 'string' },
        out: { type: 'string' },
        db: { type: 'string' },
        'base-url': { type: 'string' },
        label: { type: 'string' },
        'ca-file': { type: 'string' },
        'metrics-port': { type: 'string' },
        'metrics-host': { type: 'string' },
        'metrics-token-env': { type: 'string' },
        'dns-server': { type: 'string', multiple: true },
        'group-wait': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [name, ...extra] = positionals;
  if (values.help || name === 'help') return { name: 'help' };
  if (!name) throw new UsageError('No command given.');
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra[0]}`);

  const common: CommonOptions = { db: values.db?.trim() || defaultDbPath(env) };
  if (values['base-url'] !== undefined) common.baseUrl = values['base-url'];
  if (values.label !== undefined) {
    if (!values.label.trim()) throw new UsageError('--label must not be empty.');
    common.label = values.label.trim();
  }
  Object.assign(common, caFileOption(values['ca-file']));

  const allowed: Record<string, readonly string[]> = {
    sync: ['once', 'watch', 'metrics-port', 'metrics-host', 'metrics-token-env', 'dns-server', 'group-wait'],
    status: ['json'],
    alerts: ['json', 'open'],
    export: ['format', 'out'],
  };
  const own = Object.hasOwn(allowed, name) ? allowed[name] : undefined;
  if (!own) throw new UsageError(`Unknown command: ${name}`);
  for (const key of [
    'once',
    'watch',
    'json',
    'open',
    'format',
    'out',
    'metrics-port',
    'metrics-host',
    'metrics-token-env',
    'dns-server',
    'group-wait',
  ] as const) {
    if (values[key] !== undefined && !own.includes(key)) {
      throw new UsageError(`--${key} does not apply to "${name}".`);
    }
  }

  switch (name) {
    case 'sync': {
      if (values.once === values.watch) throw new UsageError('sync needs exactly one of --once or --watch.');
      const metrics = metricsOptions(values);
      if (metrics && values.once) throw new UsageError('--metrics-port goes with sync --watch.');
      const dnsServers = values['dns-server'] ?? [];
      for (const server of dnsServers) {
        if (parseServer(server) === null)
          throw new UsageError(
            `--dns-server ${server}: give a resolver's IP address, optionally with :PORT.`,
          );
      }
      let groupWaitMs: number | undefined;
      if (values['group-wait'] !== undefined) {
        const seconds = Number(values['group-wait']);
        if (values.once) throw new UsageError('--group-wait goes with sync --watch.');
        if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600)
          throw new UsageError(
            `--group-wait takes whole seconds from 1 to 600, not “${values['group-wait']}”.`,
          );
        groupWaitMs = seconds * 1000;
      }
      return {
        name,
        mode: values.once ? 'once' : 'watch',
        ...(metrics ? { metrics } : {}),
        ...(groupWaitMs !== undefined ? { groupWaitMs } : {}),
        dnsServers,
        ...common,
      };
    }
    case 'status':
      return { name, json: values.json === true, ...common };
    case 'alerts':
      return { name, json: values.json === true, open: values.open === true, ...common };
    default: {
      const format = values.format;
      if (format !== 'csv' && format !== 'json')
        throw new UsageError('export needs --format csv or --format json.');
      return { name: 'export', format, ...(values.out ? { out: values.out } : {}), ...common };
    }
  }
}

/** `--ca-file FILE` as a common option (an empty value is a mistake, not "none"). */
export function caFileOption(raw: string | undefined): Pick<CommonOptions, 'caFile'> {
  if (raw === undefined) return {};
  if (!raw.trim()) throw new UsageError('--ca-file needs the path of a PEM file.');
  return { caFile: raw.trim() };
}

function metricsOptions(values: {
  'metrics-port'?: string | undefined;
  'metrics-host'?: string | undefined;
  'metrics-token-env'?: string | undefined;
}): MetricsOptions | undefined {
  const raw = values['metrics-port'];
  if (raw === undefined) {
    if (values['metrics-host'] !== undefined || values['metrics-token-env'] !== undefined)
      throw new UsageError('--metrics-host and --metrics-token-env go with --metrics-port.');
    return undefined;
  }
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--metrics-port takes a port number (0–65535), not “${raw}”.`);
  return {
    port,
    host: values['metrics-host'] ?? '127.0.0.1',
    ...(values['metrics-token-env'] !== undefined ? { tokenEnv: values['metrics-token-env'] } : {}),
  };
}
