/**
 * `authwatch-host`: the desktop app's engine and renderer in a browser window, for machines where the
 * Electron binary is not available. Usage: tsx main/host/index.ts [--db FILE] [--port N] [--no-open]
 * [--dns-server HOST[:PORT]]… (the DNS watch's resolvers for this run; default: AUTHWATCH_DNS_SERVERS, the settings', else the system's)
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultDbPath, describeStartupError, dnsServersFromEnv } from '../core/index.ts';
import { openWindow, runHost, type HostRun } from './run.ts';

const say = (line: string) => process.stderr.write(line + '\n');
const options = {
  db: { type: 'string' },
  port: { type: 'string' },
  renderer: { type: 'string' },
  'no-open': { type: 'boolean', default: false },
  'dns-server': { type: 'string', multiple: true },
} as const;
let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values'];
try {
  values = parseArgs({ options }).values;
} catch (error) {
  say(
    `authwatch-host: ${(error as Error).message} (usage: [--db FILE] [--port N] [--no-open] [--dns-server HOST[:PORT]]…)`,
  );
  process.exit(2);
}
const here = fileURLToPath(new URL('.', import.meta.url));
const db = values.db ?? defaultDbPath(process.env);
const port = values.port !== undefined ? Number(values.port) : undefined;
// Listening from the start: Ctrl-C or SIGTERM while starting stops cleanly once started (a second one kills).
const stopRequested = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});
let run: HostRun;
try {
  run = await runHost({
    db,
    // From the source tree (tsx) or from out/main (the bundle), the renderer is built into out/renderer.
    rendererDir: resolve(
      values.renderer ?? process.env.AUTHWATCH_RENDERER_DIR ?? resolve(here, '../../out/renderer'),
    ),
    ...(port !== undefined ? { port } : {}),
    say,
    dnsWatch: { servers: values['dns-server'] ?? dnsServersFromEnv(process.env) },
    liveChecks: {},
  });
} catch (error) {
  // One plain line and a non-zero status, never a stack trace.
  say(`authwatch-host: ${describeStartupError(error, { db, ...(port !== undefined ? { port } : {}) })}`);
  process.exit(1);
}
process.stdout.write(`Authwatch is running at ${run.host.url}\n`);
if (!values['no-open']) openWindow(run.host.url, say);
await stopRequested;
try {
  await run.stop();
  process.exit(0);
} catch (error) {
  say(`authwatch-host: stopping failed: ${(error as Error).message}`);
  process.exit(1);
}
