/**
 * What a poller spent its requests on over the day: per kind of request (its path with ids as {id}),
 * requests per simulated hour and answer bytes per request, the median across seeds.
 */
import type { WorkerDay } from './seedSummary.ts';

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
}

/** One table of the days' requests per kind, most requested first. */
export function requestKindsTable(days: readonly WorkerDay[]): string {
  if (days.length === 0) return '';
  const kinds = [...new Set(days.flatMap((d) => Object.keys(d.figures.byKind ?? {})))];
  const rows = kinds.map((kind) => {
    const perHour = days.map((d) => (d.figures.byKind?.[kind]?.requests ?? 0) / d.hours);
    const bytes = days.map((d) => {
      const k = d.figures.byKind?.[kind];
      return k && k.requests ? k.bytes / k.requests : 0;
    });
    return { kind, perHour: median(perHour), bytes: median(bytes) };
  });
  rows.sort((a, b) => b.perHour - a.perHour);
  const total = rows.reduce((s, r) => s + r.perHour, 0);
  const lines = rows.map(
    (r) =>
      `  ${r.kind.padEnd(40)} ${r.perHour.toFixed(1).padStart(8)}/h ${((100 * r.perHour) / total).toFixed(1).padStart(5)} % ${(r.bytes / 1024).toFixed(2).padStart(7)} KiB a request`,
  );
  return [`  ${'request kind'.padEnd(40)} ${'median'.padStart(10)} ${'share'.padStart(7)}`, ...lines].join(
    '\n',
  );
}
