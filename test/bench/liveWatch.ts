/**
 * The real `authwatch sync --watch` on the wall clock (issue 21 item 4's check of the simulated week): the
 * reference service with N domains (the simulated day's, test/bench/day/dayService.ts) listening on loopback
 * with its clock following the wall clock, and the command run as users run it (bin/authwatch.mjs: the bundle
 * when `npm run build:main` made an up-to-date one, else the sources through tsx), its RSS read from
 * /proc/PID/status every `every` seconds for `minutes` minutes. The DNS watch points at a loopback port
 * nothing answers on. Prints one line per reading; asserts nothing.
 *
 *   npx tsx test/bench/liveWatch.ts [--domains 1000] [--minutes 30] [--every 30] [--tsx]
 *
 * --tsx runs the sources through tsx's loader whatever bin/authwatch.mjs would pick (as it always did before).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startDayService } from './day/dayService.ts';
import { VirtualTime } from './day/virtualTime.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
type Entry = { kind: 'bundle'; path: string } | { kind: 'sources'; path: string; why: string };
const { cliEntry } = (await import(`${ROOT}bin/cliEntry.mjs`)) as { cliEntry: (root: string) => Entry };
const { values } = parseArgs({
  options: {
    domains: { type: 'string', default: '1000' },
    minutes: { type: 'string', default: '30' },
    every: { type: 'string', default: '30' },
    tsx: { type: 'boolean', default: false },
  },
});
const domains = Number(values.domains);
const minutes = Number(values.minutes);
const everyS = Number(values.every);

// Set-up spends virtual minutes (domain creation is rate limited); then the service's clock follows the wall's.
const time = new VirtualTime(Date.now());
const svc = await startDayService(domains, time);
const token = await svc.newToken();
await time.runUntil(time.now() + 60_000);
const offset = time.now() - Date.now();
const follow = setInterval(() => void time.runUntil(Date.now() + offset), 100);
const address = await svc.app.listen({ host: '127.0.0.1', port: 0 });

const dir = mkdtempSync(join(tmpdir(), 'authwatch-live-'));
const entry: Entry = values.tsx
  ? { kind: 'sources', path: join(ROOT, 'main', 'cli', 'index.ts'), why: '--tsx' }
  : cliEntry(ROOT);
const child = spawn(
  process.execPath,
  [
    ...(values.tsx ? ['--import', 'tsx', entry.path] : [join(ROOT, 'bin', 'authwatch.mjs')]),
    'sync',
    '--watch',
    '--db',
    join(dir, 'mirror.db'),
    '--base-url',
    `${address}/api/v1`,
    '--label',
    'Live',
    '--dns-server',
    '127.0.0.1:9',
  ],
  {
    env: { PATH: process.env.PATH, HOME: dir, LANG: 'C.UTF-8', AUTHWATCH_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let stderr = '';
child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));

const status = (field: string) => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    readFileSync(`/proc/${child.pid}/status`, 'utf8'),
  );
  return match ? Number(match[1]) / 1024 : NaN;
};
const cpuS = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
process.stdout.write(
  `live sync --watch (${entry.kind === 'bundle' ? 'bundle out/main/cli.js' : `sources through tsx: ${entry.why}`}), ` +
    `${domains} domains, RSS every ${everyS} s for ${minutes} min (MiB)\n  minute    RSS   most   CPU s\n`,
);
const started = Date.now();
try {
  while (Date.now() - started < minutes * 60_000 && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, everyS * 1000));
    if (child.exitCode !== null) break;
    process.stdout.write(
      `  ${((Date.now() - started) / 60_000).toFixed(1).padStart(6)} ${status('VmRSS').toFixed(0).padStart(6)}` +
        ` ${status('VmHWM').toFixed(0).padStart(6)} ${cpuS().toFixed(1).padStart(7)}\n`,
    );
  }
  if (child.exitCode !== null) throw new Error(`sync --watch ended with ${child.exitCode}: ${stderr}`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('close', resolve));
  clearInterval(follow);
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
}
