/**
 * The day's worker processes: one (N, poller, seed) day each, run a few at a time, their figures kept under
 * BENCH_DAY_KEEP (or another folder) when asked.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { keptDay } from './keptDays.ts';

const worker = fileURLToPath(new URL('./dayWorker.ts', import.meta.url));

/**
 * One worker's figures, kept under `args` in `keep` (BENCH_DAY_KEEP by default) when set and read back when
 * `accept` takes them; `env` only for its progress line, `stamp` added to what is kept.
 */
export function runWorker(
  args: string[],
  env: Record<string, string> = {},
  keep = process.env.BENCH_DAY_KEEP,
  kept: { accept?: (figures: Record<string, unknown>) => boolean; stamp?: Record<string, unknown> } = {},
): Promise<Record<string, unknown>> {
  return keptDay(keep, args, async () => ({ ...(await spawnWorker(args, env)), ...kept.stamp }), kept.accept);
}

function spawnWorker(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`day worker ${args.join(' ')} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>);
    });
  });
}

/** Runs `tasks` at most `width` at a time, keeping their order in the result; `done` as each ends. */
export async function pool<T>(
  tasks: (() => Promise<T>)[],
  width: number,
  done: (i: number, result: T) => void,
): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
        done(i, results[i]!);
      }
    }),
  );
  return results;
}
