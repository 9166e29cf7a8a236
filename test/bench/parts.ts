/**
 * The parts of `npm run bench`, in the order they run, each with what it measures and whether the default
 * run holds it. The README's "Benchmarks" section gives each part's time on this machine.
 */
import { benchDay } from './day.bench.ts';
import { benchDnsWatch } from './dnsWatch.bench.ts';
import { benchEscalationSweep } from './escalationSweep.bench.ts';
import { benchFirstHours } from './firstHours.bench.ts';
import { benchGrid } from './grid.bench.ts';
import { benchIngest } from './ingest.bench.ts';
import { benchLargeReport } from './largeReport.bench.ts';
import { benchLiveChecks } from './liveChecks.bench.ts';
import { benchMirror } from './mirror.bench.ts';
import { benchMirrorFile } from './mirrorFile.bench.ts';
import { benchPlanner } from './planner.bench.ts';
import type { Scale } from './scale.ts';
import { benchTick } from './tick.bench.ts';
import { benchWeek } from './week.bench.ts';

/** One part: its name for --only, and its run at a scale (it prints its own tables as it measures). */
export interface BenchPart {
  name: string;
  run: (scale: Scale) => Promise<void>;
  /** False for a part too long for the default run: it runs when named with --only, or with --full. */
  inDefault: boolean;
}

export const PARTS: readonly BenchPart[] = [
  { name: 'planner', run: benchPlanner, inDefault: true },
  { name: 'tick', run: benchTick, inDefault: true },
  { name: 'mirror', run: benchMirror, inDefault: true },
  { name: 'mirror-file', run: benchMirrorFile, inDefault: true },
  { name: 'ingest', run: benchIngest, inDefault: true },
  { name: 'sweep', run: benchEscalationSweep, inDefault: true },
  { name: 'report', run: benchLargeReport, inDefault: true },
  { name: 'day', run: benchDay, inDefault: true },
  { name: 'grid', run: benchGrid, inDefault: true },
  { name: 'first-hours', run: benchFirstHours, inDefault: true },
  // After the day: it reads the engine's measured p95 from the bench-results.json the day just wrote.
  { name: 'dns', run: benchDnsWatch, inDefault: true },
  // Every live check: one round at 1,000 and 5,000 domains against the reference world (DNS, HTTPS, SMTP).
  { name: 'livechecks', run: benchLiveChecks, inDefault: true },
  // Its CPU is a week of the engine's requests (about an hour).
  { name: 'week', run: benchWeek, inDefault: false },
];
