/**
 * Runs the real `authwatch` command (bin/authwatch.mjs) as a child process, the way a user does, and
 * collects what it prints. For tests that need separate processes (the writer lock, module loading).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI_BIN = fileURLToPath(new URL('../../bin/authwatch.mjs', import.meta.url));

/** A finished run. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A command still running, with what it printed so far. */
export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches (rejects after timeoutMs or when the process ends first). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  done: Promise<CliRun>;
}

/**
 * Environment of a run: no inherited token or mirror location, a private HOME, and the DNS watch of
 * `sync --watch` pointed at a loopback port nothing answers on (a test never asks the machine's resolvers).
 */
export function cliEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    AUTHWATCH_DNS_SERVERS: '127.0.0.1:9',
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Starts `node [nodeArgs] <bin> args` (or another entry file). */
export function startCli(
  args: string[],
  options: { env: NodeJS.ProcessEnv; nodeArgs?: string[]; entry?: string; cwd?: string },
): RunningCli {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry ?? CLI_BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of waiters) w();
  });
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (code, signal) => {
      for (const w of waiters) w();
      resolve({ code, signal, stdout: out, stderr: err });
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    done,
    waitForStderr(pattern, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`timed out waiting for ${pattern}; stderr: ${err}`)),
          timeoutMs,
        );
        const check = () => {
          if (pattern.test(err)) finish();
          else if (child.exitCode !== null || child.signalCode !== null)
            finish(new Error(`process ended before ${pattern}; stderr: ${err}`));
        };
        function finish(error?: Error) {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve();
        }
        waiters.add(check);
        check();
      });
    },
  };
}

/** Runs a command to its end. */
export function runCliProcess(
  args: string[],
  options: { env: NodeJS.ProcessEnv; nodeArgs?: string[]; entry?: string; cwd?: string },
): Promise<CliRun> {
  return startCli(args, options).done;
}
