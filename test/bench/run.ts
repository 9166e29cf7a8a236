/**
 * `npm run bench`: prints the figures behind the speed and memory targets (no pass/fail; compare runs).
 * Each benchmark builds its own data in memory and needs no server or network.
 */
import { benchDay } from './day.bench.ts';
import { benchIngest } from './ingest.bench.ts';
import { benchLargeReport } from './largeReport.bench.ts';
import { benchMirror } from './mirror.bench.ts';
import { benchPlanner } from './planner.bench.ts';

process.stdout.write(`Authwatch benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);
await benchPlanner();
await benchMirror();
await benchIngest();
await benchLargeReport();
await benchDay();
