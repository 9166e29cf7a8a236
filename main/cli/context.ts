import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { normalizeBaseUrl } from '../../shared/api/baseUrl.ts';
import { createApiClient } from '../../shared/api/client.ts';
import { accountKey } from '../core/accounts/accountKey.ts';
import { TOKEN_ENV_VAR } from '../core/accounts/envSecretStore.ts';
import { headlessSecretStore } from '../core/accounts/headlessSecretStore.ts';
import { keytarSecretStore } from '../core/accounts/keytarSecretStore.ts';
import { parseIdentity } from '../core/accounts/identity.ts';
import type { SecretStore } from '../core/accounts/secretStore.ts';
import { createAuthwatch, type Authwatch, type Notifier } from '../core/app.ts';
import { describeStartupError } from '../core/app/startupError.ts';
import { openMirror } from '../core/mirror/index.ts';
import { acquireWriterLock, describeHolder, type WriterLock } from '../core/mirror/writerLock.ts';
import type { Account, Mirror } from '../core/mirror/types.ts';
import type { TickScheduler } from '../core/sync/scheduler.ts';
import type { DnsWatchOptions } from '../core/dnswatch/dnsWatchRuntime.ts';
import { UsageError, type CommonOptions } from './args.ts';
import { CommandFailed, type CliIo } from './io.ts';

/** The opened mirror and facade of one command run. */
export interface CliContext {
  mirror: Mirror;
  app: Authwatch;
  secrets: SecretStore;
  close(): Promise<void>;
}

/**
 * AUTHWATCH_TOKEN when set (CI, servers), else the OS keychain; when keytar is missing or no keychain
 * answers, one line on stderr says so and tokens live for this run only (never a plain-text file).
 */
export function chooseSecretStore(env: NodeJS.ProcessEnv, say: (line: string) => void): SecretStore {
  return headlessSecretStore(env, say);
}

/**
 * Makes this run the mirror's one writer (sync), or fails naming the process that is: two syncing processes
 * would spend the token's rate limit twice and notify every alert twice. Freed when the command exits.
 */
export function takeWriterLock(db: string, purpose: string, io: CliIo): WriterLock | null {
  if (db === ':memory:') return null;
  let attempt: ReturnType<typeof acquireWriterLock>;
  try {
    mkdirSync(dirname(db), { recursive: true, mode: 0o700 });
    attempt = acquireWriterLock(db, { purpose });
  } catch (error) {
    throw new CommandFailed(describeStartupError(error, { db }));
  }
  if (!attempt.ok) {
    throw new CommandFailed(
      `Another Authwatch process is syncing ${db}: ${describeHolder(attempt.holder)}. ` +
        'Stop it or let it finish; status, alerts and export work meanwhile.',
    );
  }
  if (attempt.tookOverFrom)
    io.stderr.write(
      `authwatch: took over the mirror's writer lock from ${describeHolder(attempt.tookOverFrom)}, which is no longer running.\n`,
    );
  return attempt.lock;
}

/** Opens the mirror file (creating its folder, private to the user) and the facade over it. */
export function openContext(
  options: CommonOptions,
  io: CliIo,
  extra: { notifier?: Notifier; scheduler?: TickScheduler; dnsWatch?: DnsWatchOptions } = {},
): CliContext {
  let mirror: Mirror;
  try {
    if (options.db !== ':memory:') mkdirSync(dirname(options.db), { recursive: true, mode: 0o700 });
    mirror = openMirror(options.db);
  } catch (error) {
    throw new CommandFailed(describeStartupError(error, { db: options.db }));
  }
  const secrets = chooseSecretStore(io.env, (line) => io.stderr.write(`${line}\n`));
  const app = createAuthwatch({
    mirror,
    secretStore: secrets,
    ...(extra.notifier ? { notifier: extra.notifier } : {}),
    ...(extra.scheduler ? { scheduler: extra.scheduler } : {}),
    // Channel secrets: the keychain itself, then the variables the channels name (never AUTHWATCH_TOKEN,
    // which the token store answers every key with).
    delivery: { secretStore: keytarSecretStore(), env: io.env },
    ...(extra.dnsWatch ? { dnsWatch: extra.dnsWatch } : {}),
    logger: {
      info: () => undefined,
      warn: () => undefined,
      error: (message, fields) =>
        io.stderr.write(`authwatch: ${message} ${fields ? JSON.stringify(fields) : ''}\n`),
    },
  });
  return {
    mirror,
    app,
    secrets,
    async close() {
      await app.stop();
      mirror.close();
    },
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
    data = (await createApiClient({ baseUrl, token }).get('/auth/me')).data;
  } catch (error) {
    throw new CommandFailed(
      `The service did not accept the token for ${baseUrl}: ${(error as Error).message}`,
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
