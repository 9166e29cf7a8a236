/**
 * One poller's simulated day at one N and seed in its own process (the benchmark runs two at a time on two
 * cores): prints the day's figures as one JSON line on stdout.
 * Usage: dayWorker.ts <domains> <hours> <engine|peer|naive> <seed index>  |  dayWorker.ts mirror [domains]
 *   |  dayWorker.ts first <domains> <hours> <engine|peer> <seed index> [cut hours] (the first hours:
 *      firstHours.ts; with cut hours, only the changes of that many first hours: simulatedDay's cutHours)
 * Progress (how far in simulated time) goes to stderr.
 */
import { progress, simulated } from '../progress.ts';
import { mirrorAtScale } from './mirrorAtScale.ts';
import { dayPlan } from './dayPlan.ts';
import { FIRST_HOURS_WINDOWS, firstHoursPlan, firstHoursOverrunMs } from './firstHours.ts';
import { POLLER_KINDS, simulateDay, type PollerKind } from './simulatedDay.ts';

const argv = process.argv.slice(2);
// `first …`: the same day's worker on a first-hours plan (its windows measured apart).
const first = argv[0] === 'first';
const [what, hoursArg, pollerArg, seedArg, cutArg] = first ? argv.slice(1) : argv;
/** How many seeds this N runs (for the progress line only; not part of the day). */
const seedsArg = process.env.BENCH_DAY_SEEDS_OF;
if (what === 'mirror') {
  process.stdout.write(
    // Its N is the second argument.
    `${JSON.stringify({ mirror: await mirrorAtScale(Number(hoursArg ?? 0) || 1_000) })}\n`,
  );
} else {
  const poller = pollerArg as PollerKind;
  if (!POLLER_KINDS.includes(poller)) throw new Error(`dayWorker: unknown poller ${pollerArg}`);
  const seed = Number(seedArg ?? 0);
  const cutHours = cutArg === undefined ? undefined : Number(cutArg);
  const plan = first
    ? {
        ...firstHoursPlan(Number(what), Number(hoursArg), seed),
        windowsHours: FIRST_HOURS_WINDOWS.filter(
          (w) => w <= Math.min(Number(hoursArg), cutHours ?? Infinity),
        ),
        // A cut run measures its windows only: the backfill is watched by the whole runs.
        backfillOverrunMs: cutHours === undefined ? firstHoursOverrunMs(Number(what), Number(hoursArg)) : 0,
        ...(cutHours === undefined ? {} : { cutHours }),
      }
    : dayPlan(Number(what), Number(hoursArg), seed);
  const shown = progress(
    `${first ? 'first hours' : 'day'}: ${what} domains, ${poller}, seed ${seed + 1}${seedsArg ? ` of ${seedsArg}` : ''}`,
  );
  // The heap's peak, sampled every simulated quarter of an hour (the end's alone misses a day's growth).
  let peakHeap = 0;
  const { mirror, figures, ...day } = await simulateDay(plan, poller, (done, total) => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    shown(simulated(done, total));
  });
  mirror.close();
  const { samples: _samples, unmatched: _unmatched, ...latency } = figures.latency;
  const memory = process.memoryUsage();
  const rssMiB = memory.rss / 1024 / 1024;
  const heapMiB = memory.heapUsed / 1024 / 1024;
  const peakHeapMiB = Math.max(peakHeap, memory.heapUsed) / 1024 / 1024;
  // The process's CPU (service, harness and poller together): what a day costs a shared machine.
  const cpu = process.cpuUsage();
  const cpuS = (cpu.user + cpu.system) / 1e6;
  process.stdout.write(
    `${JSON.stringify({ ...day, seed: plan.seed, figures: { ...figures, latency }, rssMiB, heapMiB, peakHeapMiB, cpuS })}\n`,
  );
}
