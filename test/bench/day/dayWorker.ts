/**
 * One N of the simulated day in its own process (the benchmark runs two at a time on two cores): prints
 * the day's figures as one JSON line on stdout. Usage: dayWorker.ts <domains> <hours> | mirror
 */
import { mirrorAtScale } from './mirrorAtScale.ts';
import { dayPlan } from './dayPlan.ts';
import { simulateDay } from './simulatedDay.ts';

const [what, hoursArg] = process.argv.slice(2);
if (what === 'mirror') {
  process.stdout.write(`${JSON.stringify({ mirror: await mirrorAtScale(1_000) })}\n`);
} else {
  const domains = Number(what);
  const { engineUnderTest, ...day } = await simulateDay(dayPlan(domains, Number(hoursArg)));
  engineUnderTest.close();
  const rssMiB = process.memoryUsage().rss / 1024 / 1024;
  const { samples: _e, ...engineLatency } = day.engine.latency;
  const naiveLatency = day.naive ? (({ samples: _n, ...rest }) => rest)(day.naive.latency) : null;
  process.stdout.write(
    `${JSON.stringify({
      day: {
        ...day,
        engine: { ...day.engine, latency: engineLatency },
        naive: day.naive ? { ...day.naive, latency: naiveLatency } : null,
        rssMiB,
      },
    })}\n`,
  );
}
