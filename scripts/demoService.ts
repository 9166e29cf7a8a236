/**
 * How `npm run demo` starts the reference service: its secrets (the demo token and the sandbox key) go in
 * the child's environment, readable only by the user, never on its command line, which every user of the
 * machine can read in `ps`.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** The arguments and environment of `node --import tsx service/cli.ts` for the demo. */
export function demoServiceCommand(options: {
  port: number;
  token: string;
  sandboxKey: string;
  env: NodeJS.ProcessEnv;
}): { args: string[]; env: NodeJS.ProcessEnv } {
  return {
    args: ['--import', 'tsx', 'service/cli.ts', '--port', String(options.port), '--seed', 'demo'],
    env: {
      ...options.env,
      AUTHWATCH_SERVICE_TOKEN: options.token,
      AUTHWATCH_SERVICE_SANDBOX_KEY: options.sandboxKey,
    },
  };
}

/**
 * Starts the reference service as the demo does and resolves once `ready` finds what it waits for in the
 * service's stdout (its base URL line, its DNS line); rejects when the service exits before that.
 */
export function spawnDemoService<T>(
  root: string,
  options: { port: number; token: string; sandboxKey: string; extraArgs?: string[] },
  ready: (stdout: string) => T | null,
): Promise<{ child: ChildProcess; found: T }> {
  const { args, env } = demoServiceCommand({ ...options, env: process.env });
  args.push(...(options.extraArgs ?? []));
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = ready(out);
      if (found !== null) done({ child, found });
    });
    child.once('exit', (code) => fail(new Error(`the reference service exited (${code}) before serving`)));
  });
}

/** The base URL line the service prints first, or null. */
export function baseUrlLine(stdout: string): string | null {
  return /^(http:\/\/\S+\/api\/v1)$/m.exec(stdout)?.[1] ?? null;
}
