/** Tiny measuring helpers for the benchmarks: wall time per operation and memory, printed as figures. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
}

/** Runs `fn` `iterations` times after a warm-up and returns the median milliseconds of `rounds` rounds. */
export async function timeIt(
  fn: () => unknown,
  { iterations = 1, rounds = 5 }: { iterations?: number; rounds?: number } = {},
): Promise<{ medianMs: number; perOpMs: number }> {
  await fn();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const medianMs = samples[Math.floor(samples.length / 2)] ?? 0;
  return { medianMs, perOpMs: medianMs / iterations };
}

/** Resident set size in MiB, after a GC when the process exposes one. */
export function rssMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
}

/** Prints one benchmark's figures as aligned lines. */
export function report(title: string, figures: Figure[]): void {
  process.stdout.write(`\n${title}\n`);
  for (const f of figures) {
    const value = f.value >= 100 ? f.value.toFixed(0) : f.value.toFixed(2);
    process.stdout.write(`  ${f.name.padEnd(52)} ${value.padStart(10)} ${f.unit}\n`);
  }
}
