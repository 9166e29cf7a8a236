/**
 * The simulated week (issue 21 item 4): the engine as `authwatch sync --watch` runs it, on a mirror file with
 * the app's settings, for 7 simulated days at 1,000 domains against the reference service in a process of
 * its own, on a virtual clock (week/weekWorker.ts). Per simulated day: the engine process's heap used and RSS
 * after a full GC, the service process's apart, the mirror file's size. Prints figures, asserts nothing; the
 * target (the engine's RSS < 200 MiB after the week) is printed as met or not.
 *
 * Not in the default run (its CPU is that of a week of 54 requests a minute: see the README); run it with
 * `npm run bench -- --only=week` or `--full`. BENCH_WEEK_DOMAINS (1000), BENCH_WEEK_DAYS (7) and
 * BENCH_WEEK_DIR (where the mirror file goes; default a new folder under the OS's temp dir) change it.
 * Smoke: 50 domains for 0.05 of a day (72 min: its first sync, one sample), no bench-week.json.
 *
 * The engine's process runs a BUNDLE of the worker (esbuild, the options of scripts/build-main.ts), as users
 * run the engine (the Electron main and the CLI are bundles): through tsx's loader the same process holds
 * 25–45 MiB more RSS (its compiler's and source maps' memory). BENCH_WEEK_LOADER=tsx measures
 * that way instead.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ESM_REQUIRE_BANNER, EXTERNAL, folderRegistryPlugin } from '../../scripts/build-main.ts';
import { SERVICE_SCRIPT } from './week/serviceClient.ts';
import type { MemoryDetail } from './week/processMemory.ts';
import type { WeekSample } from './week/weekWorker.ts';
import { ALERT_KINDS, type LatencyFigures } from './day/changeLatency.ts';
import type { Scale } from './scale.ts';

const worker = fileURLToPath(new URL('./week/weekWorker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The worker as one ESM bundle under out/ (so node_modules resolves its native modules), as build-main bundles. */
async function bundleWorker(): Promise<string> {
  const dir = join(ROOT, 'out', 'bench-week');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'weekWorker.mjs');
  await build({
    absWorkingDir: ROOT,
    entryPoints: [worker],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: EXTERNAL,
    banner: { js: ESM_REQUIRE_BANNER },
    plugins: [folderRegistryPlugin],
    logLevel: 'warning',
  });
  return outfile;
}
/** The issue's target for the engine's RSS after the week at 1,000 domains. */
const TARGET_RSS_MIB = 200;

const mib = (v: number) => v.toFixed(0).padStart(6);
const one = (v: number | null) => (v === null ? '—' : v.toFixed(1));
/** Where the engine's RSS went (MiB): V8's committed heap by space, buffers, native anonymous, file-backed. */
const split = (d: MemoryDetail) =>
  `RSS ${one(d.rss)} = V8 heap ${one(d.heapTotal)} committed (new ${one(d.spaces.new)}, old ${one(d.spaces.old)}, ` +
  `code ${one(d.spaces.code)}, large ${one(d.spaces.large)}; used ${one(d.heapUsed)}) + buffers ${one(d.arrayBuffers)} ` +
  `+ native ${one(d.native)} (malloc, stacks of ${d.threads ?? '—'} threads) + file-backed ${one(d.fileBacked)}`;

/** Runs the week in its own process and prints each simulated day's sample as it arrives. */
export async function benchWeek(scale: Scale): Promise<void> {
  const smoke = scale === 'smoke';
  const domains = Number(process.env.BENCH_WEEK_DOMAINS ?? 0) || (smoke ? 50 : 1000);
  const days = Number(process.env.BENCH_WEEK_DAYS ?? 0) || (smoke ? 0.05 : 7);
  const dir = mkdtempSync(join(process.env.BENCH_WEEK_DIR ?? tmpdir(), 'authwatch-week-'));
  const file = join(dir, 'mirror.sqlite');
  const viaTsx = process.env.BENCH_WEEK_LOADER === 'tsx';
  // Node flags to try on the engine's process (e.g. --max-semi-space-size=2), space-separated.
  const flags = (process.env.BENCH_WEEK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const engineArgs = viaTsx
    ? [...flags, '--import', 'tsx', '--expose-gc', worker]
    : [...flags, '--expose-gc', await bundleWorker()];
  process.stdout.write(
    `\nsimulated week — the engine as sync --watch runs it (${viaTsx ? 'through tsx' : 'bundled'}; mirror file ${file}), ${domains} domains, ${days} days; ` +
      'the reference service in its own process; MiB after a full GC, peak = the most RSS seen since the row before without one (its heap then)\n' +
      `  ${'day'.padEnd(5)} ${'engine heap'.padStart(11)} ${'engine RSS'.padStart(10)} ${'peak (heap)'.padStart(12)}` +
      ` ${'service heap'.padStart(12)} ${'service RSS'.padStart(11)} ${'mirror file'.padStart(11)}` +
      ` ${'requests'.padStart(9)} ${'429'.padStart(4)} ${'CPU s eng/svc'.padStart(14)} ${'wall s'.padStart(7)}\n`,
  );
  const samples: WeekSample[] = [];
  let done: Record<string, unknown> | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [...engineArgs, String(domains), String(days), file, SERVICE_SCRIPT],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = JSON.parse(buffer.slice(0, newline)) as WeekSample & { done?: boolean };
          buffer = buffer.slice(newline + 1);
          if (line.done) {
            done = line as unknown as Record<string, unknown>;
            continue;
          }
          samples.push(line);
          const e = line.engine;
          const s = line.service;
          process.stdout.write(
            `  ${String(line.day).padEnd(5)} ${mib(e.heapUsedMiB).padStart(11)} ${mib(e.rssMiB).padStart(10)} ${`${line.peak.rssMiB.toFixed(0)} (${line.peak.heapUsedMiB.toFixed(0)})`.padStart(12)}` +
              ` ${mib(s.heapUsedMiB).padStart(12)} ${mib(s.rssMiB).padStart(11)} ${mib(line.mirrorMiB).padStart(11)}` +
              ` ${String(line.requests).padStart(9)} ${String(line.status429).padStart(4)}` +
              ` ${`${e.cpuS.toFixed(0)}/${s.cpuS.toFixed(0)}`.padStart(14)} ${line.wallS.toFixed(0).padStart(7)}\n` +
              `        after GC: ${split(line.engineDetail)}\n` +
              (line.peak.detail ? `        at peak:  ${split(line.peak.detail)}\n` : ''),
          );
        }
      });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`week worker exited with ${code}`)),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const last = samples.at(-1);
  const first = samples.find((s) => s.day >= 1) ?? samples[0];
  if (last && first) {
    const span = last.day - first.day;
    const perDay = (a: number, b: number) => (span > 0 ? ((b - a) / span).toFixed(2) : '—');
    process.stdout.write(
      `  growth after the first day, per simulated day: engine heap ${perDay(first.engine.heapUsedMiB, last.engine.heapUsedMiB)} MiB, ` +
        `engine RSS ${perDay(first.engine.rssMiB, last.engine.rssMiB)} MiB, service RSS ${perDay(first.service.rssMiB, last.service.rssMiB)} MiB, ` +
        `mirror ${perDay(first.mirrorMiB, last.mirrorMiB)} MiB\n`,
    );
    const latency = (done as { latency?: Omit<LatencyFigures, 'samples' | 'unmatched'> } | null)?.latency;
    if (latency) {
      const kinds = ALERT_KINDS.map((k) => `${k} ${latency.byKind[k].missed}`).join(', ');
      process.stdout.write(
        `  alerts: ${latency.changes} changes, ${latency.missed} missed (${latency.missedWhy.open} while an alert of that state was still open, ` +
          `${latency.missedWhy.untold} told of nowhere; by kind: ${kinds}), p95 change→alert ${latency.p95Ms === null ? '—' : `${(latency.p95Ms / 60_000).toFixed(1)} min`}\n`,
      );
    }
    process.stdout.write(
      `target: the engine's RSS < ${TARGET_RSS_MIB} MiB at 1,000 domains after a simulated week — ` +
        `${last.engine.rssMiB.toFixed(0)} MiB (most held ${last.engine.maxRssMiB.toFixed(0)} MiB) after ${last.day} days at ${domains} domains: ` +
        `${last.engine.maxRssMiB < TARGET_RSS_MIB ? 'met' : 'NOT met'}${domains === 1000 && last.day >= 7 ? '' : ' (not the target’s run)'}\n`,
    );
  }
  if (smoke) return;
  writeFileSync(
    'bench-week.json',
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, domains, days, samples, done }, null, 2)}\n`,
  );
  process.stdout.write('figures written to bench-week.json\n');
}
