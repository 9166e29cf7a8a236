/**
 * `npm run bench`: prints the figures behind the speed and memory targets (no pass/fail; compare runs).
 * Each benchmark builds its own data and needs no network; tables go to stdout as each is measured, and
 * the long parts tell on stderr how far they got (size, seed, simulated time).
 *
 *   npm run bench                     the default run (the README gives each part's time: ~10 min of CPU)
 *   npm run bench -- --full           every part at every size: the simulated day over the issue's whole grid
 *                                     (24 h × 5 seeds at 50, 200, 1,000 and 5,000 domains: hours of wall
 *                                     time), the DNS watch at 5,000 domains, the week
 *   npm run bench -- --only=day,tick  only the named parts (planner, tick, mirror, mirror-file, ingest, report,
 *                                     day, grid, first-hours, dns, week), at the default sizes (with --full: the full ones)
 *   npm run bench -- --smoke          each part at its smallest size and one seed, the week included: does
 *                                     it still run? (test/unit/bench/benchSmoke.test.ts runs it in CI)
 *   BENCH_DAY_KEEP=<dir> npm run bench -- --only=grid
 *                                     the grid's table from the days kept in <dir> (min / median / max across
 *                                     seeds per N), running nothing
 */
import { PARTS } from './parts.ts';
import type { Scale } from './scale.ts';

const args = process.argv.slice(2);
const scale: Scale = args.includes('--smoke') ? 'smoke' : args.includes('--full') ? 'full' : 'default';
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const names = PARTS.map((p) => p.name);
const unknown = [
  ...(only ?? []).filter((name) => !names.includes(name)),
  ...args.filter((a) => !a.startsWith('--only=') && !['--smoke', '--full'].includes(a)),
];
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown part or option ${unknown.join(', ')} (parts: ${names.join(', ')})\n`);
  process.exit(2);
}

process.stdout.write(
  `Authwatch benchmarks — node ${process.version}, ${new Date().toISOString()}${scale === 'default' ? '' : ` (${scale})`}\n`,
);
const began = { wall: performance.now(), cpu: process.cpuUsage() };
for (const part of PARTS) {
  if (only ? !only.includes(part.name) : scale === 'default' && !part.inDefault) continue;
  const wall = performance.now();
  const cpu = process.cpuUsage();
  await part.run(scale);
  const used = process.cpuUsage(cpu);
  // This process's CPU: the day's and the week's workers report their own in their tables.
  process.stderr.write(
    `  … ${part.name}: ${((performance.now() - wall) / 1000).toFixed(0)} s wall, ${((used.user + used.system) / 1e6).toFixed(0)} s CPU in this process\n`,
  );
}
const total = process.cpuUsage(began.cpu);
process.stderr.write(
  `bench: ${((performance.now() - began.wall) / 1000).toFixed(0)} s wall, ${((total.user + total.system) / 1e6).toFixed(0)} s CPU in this process\n`,
);
