/**
 * One poller's simulated day at one N in its own process (the benchmark runs two at a time on two cores):
 * prints the day's figures as one JSON line on stdout.
 * Usage: dayWorker.ts <domains> <hours> <engine|naive>  |  dayWorker.ts mirror
 */
import { mirrorAtScale } from './mirrorAtScale.ts';
import { dayPlan } from './dayPlan.ts';
import { simulateDay, type PollerKind } from './simulatedDay.ts';

const [what, hoursArg, pollerArg] = process.argv.slice(2);
if (what === 'mirror') {
  process.stdout.write(`${JSON.stringify({ mirror: await mirrorAtScale(1_000) })}\n`);
} else {
  const poller = pollerArg as PollerKind;
  if (poller !== 'engine' && poller !== 'naive') throw new Error(`dayWorker: unknown poller ${pollerArg}`);
  const { mirror, figures, ...day } = await simulateDay(dayPlan(Number(what), Number(hoursArg)), poller);
  mirror.close();
  const { samples: _samples, unmatched: _unmatched, ...latency } = figures.latency;
  const rssMiB = process.memoryUsage().rss / 1024 / 1024;
  process.stdout.write(`${JSON.stringify({ ...day, figures: { ...figures, latency }, rssMiB })}\n`);
}
