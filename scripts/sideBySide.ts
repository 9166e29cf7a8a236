/**
 * `tsx scripts/sideBySide.ts lint typecheck`: runs npm scripts at the same time and fails when any fails.
 * `npm test` runs the lint, the typecheck and build:main (the bundle the CLI tests' processes load) this way:
 * each is one thread (ESLint, Prettier, knip; tsc, svelte-check; esbuild's few seconds), so on two cores they
 * take the time of the longest, not of all. Each script's output is printed whole when it ends (never
 * interleaved), with its time and exit status.
 */
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: tsx scripts/sideBySide.ts SCRIPT [SCRIPT…] (npm scripts of package.json)\n');
  process.exit(2);
}

/** Runs `npm run <name>` with its output kept; resolves with its exit code (1 when it could not start). */
function run(name: string): Promise<number> {
  const started = Date.now();
  const child = spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    let ended = false;
    // 'error' (npm not found) may be followed by 'close': the first one reports.
    const done = (code: number, why = '') => {
      if (ended) return;
      ended = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(
        `\n── npm run ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s${why}\n\n`,
      );
      resolve(code);
    };
    child.on('error', (error) => done(1, ` — ${error.message}`));
    child.on('close', (code, signal) => done(code ?? 1, signal ? ` — ended by ${signal}` : ''));
  });
}

const codes = await Promise.all(names.map(run));
process.exit(codes.every((code) => code === 0) ? 0 : 1);
