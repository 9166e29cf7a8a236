import { normalizeBaseUrl } from '../../shared/api/baseUrl.ts';
import { createApiClient } from '../../shared/api/client.ts';
import {
  type Account,
  accountKey,
  type Authwatch,
  describeStartupError,
  type DnsWatchOptions,
  type LiveCheckOptions,
  type Mirror,
  MirrorBusyError,
  type Notifier,
  openRuntime,
  parseIdentity,
  type Runtime,
  type SecretStore,
  TOKEN_ENV_VAR,
} from '../core/index.ts';
import { UsageError, type CommonOptions } from './args.ts';
import { CommandFailed, type CliIo } from './io.ts';

/** The opened mirror and facade of one command run. */
export interface CliContext {
  mirror: Mirror;
  app: Authwatch;
  secrets: SecretStore;
  /** The network layer's fetch: the environment's proxies and the extra CA apply to every request. */
  fetch: typeof fetch;
  close(): Promise<void>;
}

/**
 * Opens the mirror file (creating its folder, private to the user) and the facade over it. Tokens:
 * AUTHWATCH_TOKEN when set (CI, servers), else the OS keychain; when keytar is missing or no keychain
 * answers, one line on stderr says so and tokens live for this run only (never a plain-text file).
 * `writer` (sync) makes this run the mirror's one writer, or fails naming the process that is: two syncing
 * processes would spend the token's rate limit twice and notify every alert twice. Freed on close().
 */
export function openContext(
  options: CommonOptions,
  io: CliIo,
  extra: {
    notifier?: Notifier;
    writer?: string;
    dnsWatch?: DnsWatchOptions;
    liveChecks?: LiveCheckOptions;
    groupWaitMs?: number;
  } = {},
): CliContext {
  let runtime: Runtime;
  try {
    runtime = openRuntime({
      db: options.db,
      role: extra.writer ? 'writer' : 'reader',
      purpose: extra.writer ?? 'authwatch',
      secrets: 'headless',
      env: io.env,
      ...(options.caFile ? { networkShell: { caFile: options.caFile } } : {}),
      say: (line) => io.stderr.write(`${line}\n`),
      ...(extra.notifier ? { notifier: extra.notifier } : {}),
      ...(extra.dnsWatch ? { dnsWatch: extra.dnsWatch } : {}),
      ...(extra.liveChecks ? { liveChecks: extra.liveChecks } : {}),
      ...(extra.groupWaitMs ? { delivery: { sender: { gatherQuietMs: extra.groupWaitMs } } } : {}),
      logger: {
        info: () => undefined,
        warn: () => undefined,
        error: (message, fields) =>
          io.stderr.write(`authwatch: ${message} ${fields ? JSON.stringify(fields) : ''}\n`),
      },
    });
  } catch (error) {
    if (error instanceof MirrorBusyError)
      throw new CommandFailed(
        `${error.message} Stop it or let it finish; status, alerts and export work meanwhile.`,
      );
    throw new CommandFailed(describeStartupError(error, { db: options.db }));
  }
  return {
    mirror: runtime.mirror,
    app: runtime.app,
    secrets: runtime.secrets,
    fetch: runtime.network.fetch,
    close: () => runtime.close(),
  };
}

/** The accounts a read command covers: the one named by --label, else all. */
export function selectAccounts(mirror: Mirror, label: string | undefined): Account[] {
  const accounts = mirror.listAccounts();
  if (label === undefined) return accounts;
  const found = accounts.filter((a) => a.label === label);
  if (found.length === 0) throw new UsageError(`No account labelled “${label}” in the mirror.`);
  return found;
}

/**
 * The account `sync` works on: found by --label (or the only one), or created from --base-url after its token
 * (AUTHWATCH_TOKEN or the keychain entry "label@base URL") passed GET /auth/me. The token is never stored here.
 */
export async function resolveSyncAccount(ctx: CliContext, options: CommonOptions): Promise<Account> {
  const accounts = ctx.mirror.listAccounts();
  const baseUrl = options.baseUrl !== undefined ? normalizeBase(options.baseUrl) : undefined;
  let account =
    options.label !== undefined
      ? accounts.find((a) => a.label === options.label)
      : baseUrl !== undefined
        ? accounts.find((a) => a.baseUrl === baseUrl)
        : accounts.length === 1
          ? accounts[0]
          : undefined;
  if (!account && options.label === undefined && baseUrl === undefined) {
    throw new UsageError(
      accounts.length === 0
        ? 'No account yet: give --base-url (and --label) to add one.'
        : `Several accounts (${accounts.map((a) => a.label).join(', ')}): choose one with --label.`,
    );
  }
  if (account) {
    if (baseUrl !== undefined && baseUrl !== account.baseUrl) {
      throw new UsageError(`Account “${account.label}” uses ${account.baseUrl}, not ${baseUrl}.`);
    }
    return account;
  }
  if (baseUrl === undefined)
    throw new UsageError(`No account labelled “${options.label}”: give --base-url to add it.`);
  const label = options.label ?? 'default';
  const token = await ctx.secrets.get(accountKey({ label, baseUrl }));
  if (!token) {
    throw new CommandFailed(
      `No API token for “${label}”: set ${TOKEN_ENV_VAR}, or store the token in the OS keychain ` +
        `(service “Authwatch”, account “${accountKey({ label, baseUrl })}”).`,
    );
  }
  let data: unknown;
  try {
    data = (await createApiClient({ baseUrl, token, fetch: ctx.fetch }).get('/auth/me')).data;
  } catch (error) {
    // A proxy or certificate that stops the request is not the token's fault: say which it was.
    const code = (error as { code?: unknown }).code;
    throw new CommandFailed(
      code === 'network_error' || code === 'timeout'
        ? `${baseUrl} could not be reached: ${(error as Error).message}`
        : `The service did not accept the token for ${baseUrl}: ${(error as Error).message}`,
    );
  }
  // The account is saved only once the service said whose token this is.
  const identity = parseIdentity(data);
  if (!identity) {
    throw new CommandFailed(
      `${baseUrl} did not answer GET /auth/me with a valid identity (user, team and token scopes); ` +
        'no account was added.',
    );
  }
  account = ctx.mirror.upsertAccount({ label, baseUrl });
  return Object.assign(account, { identity });
}

function normalizeBase(input: string): string {
  try {
    return normalizeBaseUrl(input);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
