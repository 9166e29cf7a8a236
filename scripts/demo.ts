/**
 * `npm run demo`: the reference service with the seeded demo portfolio, and Authwatch pointed at it.
 *
 * 1. starts `service/cli.ts --seed demo` on 127.0.0.1 (port 8787, or a free one when taken) with a fresh
 *    random token and sandbox key, which are written to `.authwatch-demo/credentials.env` (mode 600) for
 *    curl exploration — never printed;
 * 2. runs the `authwatch` command against it with that token in AUTHWATCH_TOKEN and the mirror in
 *    `.authwatch-demo/mirror.db`: a first full sync, then `status` and `alerts`;
 * 3. keeps both running (`sync --watch`) until Ctrl-C, unless `--once` is given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const { values } = parseArgs({
  options: { once: { type: 'boolean', default: false }, port: { type: 'string', default: '8787' } },
});
const demoDir = join(root, '.authwatch-demo');
const token = `awt_${randomBytes(30).toString('base64url')}`;
const sandboxKey = randomBytes(18).toString('base64url');

/** The wanted port when it is free, else 0 (the OS picks). */
function freePort(wanted: number): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(0));
    probe.listen(wanted, '127.0.0.1', () => probe.close(() => done(wanted)));
  });
}

/** Resolves with the service's base URL once it prints it. */
function startService(port: number): Promise<{ child: ChildProcess; baseUrl: string }> {
  const args = ['--import', 'tsx', 'service/cli.ts', '--port', String(port), '--seed', 'demo'];
  args.push('--token', token, '--sandbox-key', sandboxKey);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /^(http:\/\/\S+\/api\/v1)$/m.exec(out)?.[1];
      if (url) done({ child, baseUrl: url });
    });
    child.once('exit', (code) => fail(new Error(`the reference service exited (${code}) before serving`)));
  });
}

/** Runs one `authwatch` command in the foreground; resolves to its exit status. */
function authwatch(args: string[], baseUrl: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      'bin/authwatch.mjs',
      ...args,
      '--base-url',
      baseUrl,
      '--label',
      'Demo',
      '--db',
      join(demoDir, 'mirror.db'),
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, AUTHWATCH_TOKEN: token } },
  );
  return new Promise((done) => child.once('exit', (code) => done(code ?? 1)));
}

// A fresh mirror each run: the service's demo data is regenerated too, so old alerts would not match.
rmSync(demoDir, { recursive: true, force: true });
mkdirSync(demoDir, { recursive: true });
const { child: service, baseUrl } = await startService(await freePort(Number(values.port)));
const credentials = join(demoDir, 'credentials.env');
writeFileSync(
  credentials,
  `AUTHWATCH_BASE_URL=${baseUrl}\nAUTHWATCH_TOKEN=${token}\nAUTHWATCH_SANDBOX_KEY=${sandboxKey}\n`,
  { mode: 0o600 },
);
const stopService = () => service.kill('SIGTERM');
process.on('exit', stopService);

process.stdout.write(
  `Reference service with the demo portfolio: ${baseUrl}\n` +
    `Token and sandbox key for curl: ${credentials} (source it, then e.g.\n` +
    `  curl -H "X-Api-Token: $AUTHWATCH_TOKEN" $AUTHWATCH_BASE_URL/domains)\n\n`,
);
let status = await authwatch(['sync', '--once'], baseUrl);
await authwatch(['status'], baseUrl);
await authwatch(['alerts'], baseUrl);
if (!values.once) {
  process.stdout.write('\nWatching (Ctrl-C to stop)…\n');
  status = await authwatch(['sync', '--watch'], baseUrl);
}
stopService();
process.exit(status);
