/**
 * `authwatch-host`: the desktop app's engine and renderer in a browser window, for machines where the
 * Electron binary is not available. Usage: tsx main/host/index.ts [--db FILE] [--port N] [--no-open]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultDbPath } from '../core/mirror/defaultPath.ts';
import { openWindow, runHost } from './run.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    port: { type: 'string' },
    renderer: { type: 'string' },
    'no-open': { type: 'boolean', default: false },
  },
});
const here = fileURLToPath(new URL('.', import.meta.url));
const say = (line: string) => process.stderr.write(line + '\n');
const run = await runHost({
  db: values.db ?? defaultDbPath(process.env),
  // From the source tree (tsx) or from out/main (the bundle), the renderer is built into out/renderer.
  rendererDir: resolve(
    values.renderer ?? process.env.AUTHWATCH_RENDERER_DIR ?? resolve(here, '../../out/renderer'),
  ),
  ...(values.port ? { port: Number(values.port) } : {}),
  say,
});
process.stdout.write(`Authwatch is running at ${run.host.url}\n`);
if (!values['no-open']) openWindow(run.host.url, say);
const stop = () => void run.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
