/**
 * `npm run demo`: the reference service with the seeded demo portfolio, and the Authwatch app connected to it.
 *
 * 1. starts `service/cli.ts --seed demo` on 127.0.0.1 (port 8787, or a free one when taken) with a fresh
 *    random token and sandbox key, which are written to `.authwatch-demo/credentials.env` (mode 600) for
 *    curl exploration — never printed;
 * 2. builds the renderer when `out/renderer` is missing, then starts the app on the mirror
 *    `.authwatch-demo/mirror.db` connected to the demo account, whose token goes through the app's own
 *    secret store: Electron when its binary is installed (the account is handed over in the environment),
 *    else the browser host (as `npm start` chooses);
 *    The service also serves its zone over real DNS on a free port (`--dns-port 0`) and the app's DNS watch
 *    asks it — the watch working with no internet; `--dns-server HOST[:PORT]` (repeatable) points it elsewhere;
 *    and its live world (./demoLiveWorld.ts): MTA-STS over HTTPS, an MX with STARTTLS, a test blocklist zone,
 *    the app's live checks pointed at them, and a certificate, a VMC and the app's token made to expire soon
 *    so the portfolio's "Expiring soon" card has real entries;
 * 3. prints the app's address (and opens it in Chromium's app mode when a display is available), keeps
 *    syncing until Ctrl-C. `--once` runs the first sync, prints what it found and stops (a smoke test).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_ACCOUNT_ENV, describeStartupError, DNS_SERVERS_ENV } from '../main/core/index.ts';
import { openWindow, runHost } from '../main/host/run.ts';
import { baseUrlLine, spawnDemoService } from './demoService.ts';
import {
  DEMO_DNSBL_ZONE,
  DEMO_EXPIRING,
  demoLiveCheckSettings,
  liveWorldArgs,
  liveWorldLines,
  seedExpiring,
  type DemoLiveWorld,
} from './demoLiveWorld.ts';
import { electronBinary } from './electronBinary.ts';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
// A failure to start is one plain line and a non-zero exit, never a stack trace (the 'exit' hook below stops
// the service once it runs).
let demoDb = join(root, '.authwatch-demo', 'mirror.db');
const failPlainly = (error: unknown) => {
  process.stderr.write(`demo: ${describeStartupError(error, { db: demoDb })}\n`);
  process.exit(1);
};
process.on('uncaughtException', failPlainly);
process.on('unhandledRejection', failPlainly);
const { values } = parseArgs({
  options: {
    once: { type: 'boolean', default: false },
    port: { type: 'string', default: '8787' },
    // Another folder lets a second demo run beside the first (each deletes its folder when it starts).
    dir: { type: 'string', default: '.authwatch-demo' },
    'dns-server': { type: 'string', multiple: true },
  },
});
const demoDir = resolve(root, values.dir);
demoDb = join(demoDir, 'mirror.db');
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

/** Resolves with the service's base URL, DNS address and live world once it prints them. */
async function startService(
  port: number,
): Promise<{ child: ChildProcess; baseUrl: string; dns: string; live: DemoLiveWorld }> {
  // Its zone over real DNS too, on a free port: the app's DNS watch asks it; and its live world.
  const { child, found } = await spawnDemoService(
    root,
    { port, token, sandboxKey, extraArgs: ['--dns-port', '0', ...liveWorldArgs(demoDir)] },
    (out) => {
      const url = baseUrlLine(out);
      const dns = /^dns:\/\/(\S+)$/m.exec(out)?.[1];
      const live = liveWorldLines(out);
      return url && dns && live ? { baseUrl: url, dns, live } : null;
    },
  );
  return { child, ...found };
}

// A fresh mirror each run: the service's demo data is regenerated too, so old alerts would not match.
rmSync(demoDir, { recursive: true, force: true });
mkdirSync(demoDir, { recursive: true });
const { child: service, baseUrl, dns, live } = await startService(await freePort(Number(values.port)));
// The DNS watch asks the service's own zone (no internet needed) unless told otherwise.
const dnsServers = values['dns-server']?.length ? values['dns-server'] : [dns];
const credentials = join(demoDir, 'credentials.env');
writeFileSync(
  credentials,
  `AUTHWATCH_BASE_URL=${baseUrl}\nAUTHWATCH_TOKEN=${token}\nAUTHWATCH_SANDBOX_KEY=${sandboxKey}\n`,
  { mode: 0o600 },
);
const stopService = () => service.kill('SIGTERM');
process.on('exit', stopService);
// The app's own token expires in 12 days (the curl token above keeps its year): the card shows it.
const { appToken } = await seedExpiring({ baseUrl, sandboxKey, ownerToken: token });
const liveSettings = demoLiveCheckSettings(live);

process.stdout.write(
  `Reference service with the demo portfolio: ${baseUrl}\n` +
    `Its DNS zone: ${dns} (the app's DNS watch asks ${dnsServers.join(', ')}; try dig @${dns.replace(/:(\d+)$/, ' -p $1')} TXT _dmarc.acme.example)\n` +
    `Live checks against it: MTA-STS over HTTPS on port ${live.httpsPort}, MX STARTTLS on port ${live.smtpPort}, ` +
    `certificates of the test CA in ${live.caFile}, blocklist zone ${DEMO_DNSBL_ZONE}\n` +
    `Expiring soon: the MTA-STS certificate of acme.example in ${DEMO_EXPIRING.mtaStsCertificate} days, its VMC in ${DEMO_EXPIRING.vmc}, the app's API token in ${DEMO_EXPIRING.token}\n` +
    `Token and sandbox key for curl: ${credentials} (source it, then e.g.\n` +
    `  curl -H "X-Api-Token: $AUTHWATCH_TOKEN" $AUTHWATCH_BASE_URL/domains)\n\n`,
);

const rendererDir = join(root, 'out', 'renderer');
if (!existsSync(join(rendererDir, 'index.html'))) {
  process.stdout.write('Building the renderer (first run)…\n');
  const built = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) throw new Error('the renderer build failed');
}
const say = (line: string) => process.stdout.write(line + '\n');
const electron = values.once ? { why: '--once runs headless' } : electronBinary(root);
if ('path' in electron) {
  // The desktop app on the demo mirror, handed the demo account in its environment (it adds it through its
  // own secret store and removes the variable).
  if (!existsSync(join(root, 'out', 'main', 'main.js'))) {
    const built = spawnSync('npm', ['run', 'build:main'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (built.status !== 0) throw new Error('the app build failed');
  }
  say(`Starting the desktop app (Electron: ${electron.path}) connected to the demo account.`);
  const app = spawn(electron.path, [join(root, 'out', 'main', 'main.js')], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      AUTHWATCH_DB: join(demoDir, 'mirror.db'),
      [DEMO_ACCOUNT_ENV]: JSON.stringify({
        label: 'Acme Corp (demo)',
        baseUrl,
        token: appToken,
        liveChecks: liveSettings,
      }),
      [DNS_SERVERS_ENV]: dnsServers.join(','),
    },
  });
  app.once('exit', (code) => {
    stopService();
    process.exit(code ?? 0);
  });
} else {
  if (!values.once) say(`Starting the browser host: ${electron.why}.`);
  const run = await runHost({
    db: join(demoDir, 'mirror.db'),
    rendererDir,
    say,
    dnsWatch: { servers: dnsServers },
    liveChecks: {},
  });
  await run.app.updateLiveChecks(liveSettings);
  const added = await run.app.addAccount({ label: 'Acme Corp (demo)', baseUrl, token: appToken });
  say(
    `Added the demo account (${added.identity.teamName ?? 'demo team'}); its token is in the app’s secret store.`,
  );
  say(`\nAuthwatch is running at ${run.host.url}`);
  if (values.once) {
    say('First sync (about 155 requests within the 60-a-minute budget)…');
    const [result] = await run.app.syncNow();
    say(
      `Synced: ${result?.fetched ?? 0} fetched, ${result?.failed ?? 0} failed, ${result?.requestsSpent ?? 0} requests.`,
    );
    const checked = await run.app.checkDnsOnce();
    say(`DNS watch: ${checked?.records ?? 0} records asked of ${dnsServers.join(', ')}.`);
    const round = await run.app.checkLiveOnce();
    say(
      `Live checks: ${round?.probes ?? 0} looks (MTA-STS, MX STARTTLS, SPF, blocklists, VMC and token expiry).`,
    );
    const expiring = await run.app.expiringSoon();
    say(`Expiring soon (${expiring.entries.length}):`);
    for (const e of expiring.entries) say(`  ${e.what}: ${e.when} — ${e.consequence}`);
    const rows = await run.app.overview();
    const alerts = await run.app.listAlerts({ open: true });
    say(`${rows.length} domains in the mirror; ${alerts.length} open alerts:`);
    for (const alert of alerts) say(`  ALERT [${alert.severity}] ${alert.fqdn ?? ''}: ${alert.title}`);
    await run.stop();
    stopService();
    process.exit(result && result.failed === 0 ? 0 : 1);
  }
  openWindow(run.host.url, say);
  say(
    'Syncing in the background; the window shows the first sync’s progress. Ctrl-C stops the app and the service.',
  );
  const shutdown = () =>
    void run.stop().finally(() => {
      stopService();
      process.exit(0);
    });
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
