/**
 * `npm run service -- --port 8787 --seed demo --token <value> --sandbox-key <value> [--db <file>]
 *  [--rate-limit <n>] [--host 127.0.0.1] [--scan-interval <seconds>] [--dns-port <port>] [--dns-ttl <seconds>]`
 *
 * Secrets belong in the environment, not on the command line (every user sees command lines in `ps`):
 * AUTHWATCH_SERVICE_TOKEN and AUTHWATCH_SERVICE_SANDBOX_KEY stand for --token and --sandbox-key, which still
 * work but say so on stderr.
 *
 * Starts the reference service, prints its base URL (one line on stdout, e.g. http://127.0.0.1:8787/api/v1)
 * and serves until SIGINT/SIGTERM. Without --seed the database starts empty; `--seed demo` creates the demo
 * account with its domain portfolio and 90 days of history (service/seed); `--token` registers that value as
 * a token of the demo owner with every v1 scope (expires in 365 days). Without --db the database is in memory. `--scan-interval` runs a guard scan of every domain that
 * often (health, score and DNS timeline follow the zone); off by default. `--dns-port` also serves the sandbox
 * zone over real DNS (UDP and TCP, authoritative, every answer with `--dns-ttl` seconds, default 60; 0 picks a
 * free port) and prints a second line `dns://<host>:<port>` — the address to give the app's `--dns-server`.
 * `--https-port` serves each hosted MTA-STS policy at https://mta-sts.<domain>/.well-known/mta-sts.txt and
 * `--smtp-port` an MX host with STARTTLS (no mail accepted), both with certificates of a test CA made at start
 * whose root is written to `--ca-file` (default: authwatch-reference-ca.pem in the temp directory) and printed
 * as `ca-file <path>`; `https://<host>:<port>` and `smtp://<host>:<port>` lines follow. The zone's policy host
 * and MX hosts then resolve to --host: give the app `--ca-file <path>` and Settings → Live checks the ports.
 */
import { parseArgs } from 'node:util';
import { openServiceDb } from './db/openServiceDb.ts';
import { buildService } from './app.ts';
import { seedDemoData } from './seed/demo.ts';
import { demoOwnerId } from './sandbox/tokens.ts';
import { expiryAfterDays, findTokenBySecret, issueToken } from './auth/tokenStore.ts';
import { ALL_V1_SCOPE_IDS } from './auth/scopes.ts';
import { startZoneDnsServer, type ZoneDnsServer } from './dns/zoneDnsServer.ts';
import { startReferenceWorld, type ReferenceWorld } from './tls/referenceWorld.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const USAGE =
  'usage: npm run service -- [--port 8787] [--host 127.0.0.1] [--seed demo] [--token <value>] ' +
  '[--sandbox-key <value>] [--db <file>] [--rate-limit <n>] [--scan-interval <seconds>] ' +
  '[--dns-port <port>] [--dns-ttl <seconds>] [--https-port <port>] [--smtp-port <port>] [--ca-file <path>]';

/** A secret from the environment, else from its flag (with a word on stderr: the flag shows in `ps`). */
function secretOption(flag: string | undefined, envName: string, flagName: string): string | undefined {
  const fromEnv = process.env[envName];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (flag !== undefined)
    process.stderr.write(
      `service: ${flagName} is visible to every user of this machine (ps); prefer ${envName} in the environment.\n`,
    );
  return flag;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string' },
      token: { type: 'string' },
      'sandbox-key': { type: 'string' },
      db: { type: 'string', default: ':memory:' },
      'rate-limit': { type: 'string' },
      'scan-interval': { type: 'string' },
      'dns-port': { type: 'string' },
      'dns-ttl': { type: 'string', default: '60' },
      'https-port': { type: 'string' },
      'smtp-port': { type: 'string' },
      'ca-file': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const token = secretOption(values.token, 'AUTHWATCH_SERVICE_TOKEN', '--token');
  const sandboxKey = secretOption(values['sandbox-key'], 'AUTHWATCH_SERVICE_SANDBOX_KEY', '--sandbox-key');
  const port = Number(values.port);
  const rateLimit = values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535\n${USAGE}`);
  if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 1)) {
    throw new Error(`--rate-limit must be a positive integer\n${USAGE}`);
  }
  const scanInterval = values['scan-interval'] === undefined ? undefined : Number(values['scan-interval']);
  if (scanInterval !== undefined && !(Number.isInteger(scanInterval) && scanInterval >= 1)) {
    throw new Error(`--scan-interval must be a whole number of seconds (1 or more)\n${USAGE}`);
  }
  const dnsPort = values['dns-port'] === undefined ? undefined : Number(values['dns-port']);
  if (dnsPort !== undefined && !(Number.isInteger(dnsPort) && dnsPort >= 0 && dnsPort <= 65535)) {
    throw new Error(`--dns-port must be 0-65535\n${USAGE}`);
  }
  const dnsTtl = Number(values['dns-ttl']);
  if (!(Number.isInteger(dnsTtl) && dnsTtl >= 0 && dnsTtl <= 86400)) {
    throw new Error(`--dns-ttl must be a whole number of seconds (0-86400)\n${USAGE}`);
  }
  const portOption = (flag: 'https-port' | 'smtp-port'): number | undefined => {
    const text = values[flag];
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!(Number.isInteger(n) && n >= 0 && n <= 65535))
      throw new Error(`--${flag} must be 0-65535\n${USAGE}`);
    return n;
  };
  const httpsPort = portOption('https-port');
  const smtpPort = portOption('smtp-port');
  if (values.seed !== undefined && values.seed !== 'demo')
    throw new Error(`--seed accepts only "demo"\n${USAGE}`);

  const db = openServiceDb(values.db);
  const now = new Date();
  // The demo account with its portfolio and 90 days of history (idempotent on a file database).
  if (values.seed === 'demo') await seedDemoData(db, { now });
  if (token !== undefined) {
    const owner = demoOwnerId(db);
    if (owner === undefined) throw new Error('--token needs an account: add --seed demo');
    if (!token.trim()) throw new Error('--token must not be empty');
    if (!findTokenBySecret(db, token)) {
      issueToken(db, {
        userId: owner,
        name: 'cli token',
        scopes: ALL_V1_SCOPE_IDS,
        expiresAt: expiryAfterDays(now, 365),
        now,
        secret: token,
      });
    }
  }

  let world: ReferenceWorld | undefined;
  if (httpsPort !== undefined || smtpPort !== undefined) {
    world = await startReferenceWorld({
      db,
      address: values.host,
      ...(httpsPort !== undefined ? { httpsPort } : {}),
      ...(smtpPort !== undefined ? { smtpPort } : {}),
      caFile: values['ca-file'] ?? join(tmpdir(), 'authwatch-reference-ca.pem'),
    });
  }
  const app = buildService({
    db,
    ...(world
      ? {
          tlsWorld: {
            tlsWorld: world.tlsWorld,
            address: world.address,
            ...(world.smtp ? { smtp: world.smtp } : {}),
          },
        }
      : {}),
    sandboxKey: sandboxKey ?? null,
    rateLimitPerMinute: rateLimit,
    scanIntervalMs: scanInterval === undefined ? undefined : scanInterval * 1000,
    logger: { level: 'warn' },
  });
  await app.listen({ port, host: values.host });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const host = values.host.includes(':') ? `[${values.host}]` : values.host;
  process.stdout.write(`http://${host}:${actualPort}/api/v1\n`);
  let dns: ZoneDnsServer | undefined;
  if (dnsPort !== undefined) {
    dns = await startZoneDnsServer({ db, host: values.host, port: dnsPort, ttl: dnsTtl });
    process.stdout.write(`dns://${host}:${dns.port}\n`);
  }
  if (world) {
    process.stdout.write(`ca-file ${values['ca-file'] ?? join(tmpdir(), 'authwatch-reference-ca.pem')}\n`);
    if (world.https) process.stdout.write(`https://${host}:${world.https.port}\n`);
    if (world.smtp) process.stdout.write(`smtp://${host}:${world.smtp.port}\n`);
  }

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    Promise.all([app.close(), dns?.close(), world?.close()])
      .then(() => db.close())
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
