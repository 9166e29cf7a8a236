/**
 * How `npm run demo` starts the reference service: its secrets (the demo token and the sandbox key) go in
 * the child's environment, readable only by the user, never on its command line, which every user of the
 * machine can read in `ps`.
 */

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
