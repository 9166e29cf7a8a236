/**
 * The simulated week's engine process: forks the reference service (its own process), runs the engine as
 * `sync --watch` runs it (weekEngine.ts) on a mirror file for `days` simulated days at `domains` domains with
 * the day's seeded stream of record removals, restores and threats, and samples every 6 simulated hours: this process's heap used and RSS after a full GC settled (the engine alone, run with
 * --expose-gc), the service process's, the mirror file's size (database + WAL) and the CPU both spent.
 * Prints each sample as one JSON line as it is taken, then one line with the week's alert figures.
 * BENCH_WEEK_HEAP_SNAPSHOTS=DIR also writes the engine's heap snapshot there at every sample.
 * Usage: weekWorker.ts <domains> <days> <mirror file> [service script]
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { changeLatency } from '../day/changeLatency.ts';
import { changeStream } from '../day/changeStream.ts';
import { dayPlan } from '../day/dayPlan.ts';
import { VirtualTime } from '../day/virtualTime.ts';
import { memoryDetail, type MemoryDetail } from './processMemory.ts';
import { startServiceProcess } from './serviceClient.ts';
import { startWeekEngine } from './weekEngine.ts';
import { progress, simulated } from '../progress.ts';

const DAY = 86_400_000;
const MiB = 1024 * 1024;

/** One sample of the week (the figures the bench prints per simulated day). */
export interface WeekSample {
  day: number;
  /** The engine's process; `externalMiB` is memory V8 tracks outside its heap (buffers). */
  engine: { heapUsedMiB: number; externalMiB: number; rssMiB: number; maxRssMiB: number; cpuS: number };
  /** Where the engine's RSS goes after the GC (processMemory.ts). */
  engineDetail: MemoryDetail;
  /**
   * The engine's most RSS seen since the previous sample without a forced GC (as users run it; looked at
   * every simulated minute), when (in days) and its heap used then: garbage not yet collected shows here.
   */
  peak: { rssMiB: number; atDay: number; heapUsedMiB: number; detail?: MemoryDetail };
  service: { heapUsedMiB: number; rssMiB: number; maxRssMiB: number; cpuS: number };
  mirrorMiB: number;
  requests: number;
  status429: number;
  wallS: number;
}

const [domainsArg, daysArg, file, serviceScript] = process.argv.slice(2);
const domains = Number(domainsArg);
const days = Number(daysArg);
if (!domains || !days || !file) throw new Error('usage: weekWorker.ts <domains> <days> <mirror file>');

const wall = performance.now();
const service = await startServiceProcess(domains, serviceScript);
const time = new VirtualTime(service.readyAt);
// Set-up calls age out of the service's rate-limit window before the week starts.
await time.runUntil(Math.ceil((time.now() + 60_000) / 60_000) * 60_000);
const engine = await startWeekEngine({
  file,
  time,
  fetch: service.fetchOn(time, 100),
  token: service.token,
});
const start = time.now();
const end = start + days * DAY;

const fileMiB = (path: string) => {
  try {
    return statSync(path).size / MiB;
  } catch {
    return 0;
  }
};
let peak: WeekSample['peak'] = { rssMiB: 0, atDay: 0, heapUsedMiB: 0 };
const watchPeak = async () => {
  for (;;) {
    await time.sleep(60_000);
    const memory = process.memoryUsage();
    if (memory.rss / MiB > peak.rssMiB)
      peak = {
        rssMiB: memory.rss / MiB,
        atDay: (time.now() - start) / DAY,
        heapUsedMiB: memory.heapUsed / MiB,
        detail: memoryDetail(),
      };
  }
};
const sample = async (day: number): Promise<WeekSample> => {
  const seen = peak;
  peak = { rssMiB: 0, atDay: 0, heapUsedMiB: 0 };
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  // V8 sweeps and returns the freed pages on its own threads after a full GC: read right away, the RSS
  // still holds pages the next moment gives back (432 → 196 MiB seen between two samples). A second of
  // wall time with the virtual clock held, and a second GC, let it settle.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  gc?.();
  const memory = process.memoryUsage();
  const engineDetail = memoryDetail();
  const usage = process.resourceUsage();
  const svc = await service.memory();
  return {
    day,
    engine: {
      heapUsedMiB: memory.heapUsed / MiB,
      externalMiB: memory.external / MiB,
      rssMiB: memory.rss / MiB,
      maxRssMiB: usage.maxRSS / 1024,
      cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    },
    engineDetail,
    peak: seen,
    service: { heapUsedMiB: svc.heapUsedMiB, rssMiB: svc.rssMiB, maxRssMiB: svc.maxRssMiB, cpuS: svc.cpuS },
    mirrorMiB: fileMiB(file) + fileMiB(`${file}-wal`),
    requests: service.tally.requests,
    status429: service.tally.status429,
    wallS: (performance.now() - wall) / 1000,
  };
};
const print = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

// The seeded changes of a day as long as the run (the same generator and pacing as the simulated day).
const plan = dayPlan(domains, days * 24);
const changes = changeStream({
  seed: plan.seed,
  domains,
  start,
  durationMs: days * DAY,
  events: plan.events,
  quietMs: plan.quietMs,
  tailMs: plan.tailMs,
  minBreakMs: plan.minBreakMs,
});
const apply = async () => {
  for (const change of changes) {
    await time.sleepUntil(change.at);
    await service.apply(time, change);
  }
};
const sampler = async () => {
  // Every quarter of a simulated day (growth shows within the first day too), and the end.
  const at = Array.from({ length: Math.floor(days * 4) + 1 }, (_, q) => q / 4);
  if (at.at(-1) !== days) at.push(days);
  for (const day of at) {
    await time.sleepUntil(start + day * DAY);
    print(await time.hold(() => sample(day)));
    // Which mappings the RSS is in (V8's pages, malloc's arenas, stacks): the kernel's own list.
    const smaps = process.env.BENCH_WEEK_SMAPS;
    if (smaps)
      writeFileSync(join(smaps, `engine-day-${day.toFixed(2)}.smaps`), readFileSync('/proc/self/smaps'));
    // What grows, when something does: open two snapshots in Chrome's DevTools (Memory, Comparison).
    const snapshots = process.env.BENCH_WEEK_HEAP_SNAPSHOTS;
    if (snapshots) writeHeapSnapshot(join(snapshots, `engine-day-${day.toFixed(2)}.heapsnapshot`));
  }
};

engine.start();
void watchPeak();
let finished = false;
const runs = Promise.all([apply(), sampler()]).finally(() => (finished = true));
// In steps of a simulated hour, to tell on stderr how far it got (the same wake-ups as one runUntil(end)).
const shown = progress(`week: ${domains} domains`);
for (let at = start; at < end;) {
  at = Math.min(end, at + 3_600_000);
  await time.runUntil(at);
  shown(simulated(at - start, end - start));
}
await time.drain(() => finished, 60_000);
await runs;
let stopped = false;
const stopping = engine.app.stop().finally(() => (stopped = true));
await time.drain(() => stopped, 5 * 60_000);
await stopping;

const {
  samples: _samples,
  unmatched,
  ...latency
} = changeLatency(engine.mirror, engine.accountId, changes, (i) => service.fqdns[i]!);
// The changes no alert told of, by simulated hour, kind and domain (into bench-week.json): where to look.
const untold = unmatched.map((c) => ({
  hour: Math.round(((c.at - start) / 3_600_000) * 100) / 100,
  kind: c.kind,
  fqdn: service.fqdns[c.domainIndex]!,
  what: c.kind === 'threat' ? c.ip : c.record,
}));
print({ done: true, changes: changes.length, notified: engine.notified(), latency, untold });
await engine.close();
await service.close();
