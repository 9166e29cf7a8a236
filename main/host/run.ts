import {
  type Authwatch,
  type DnsWatchOptions,
  type LiveCheckOptions,
  type Mirror,
  MirrorBusyError,
  openRuntime,
  type Runtime,
  type SecretStore,
} from '../core/index.ts';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApiClock } from '../../shared/api/clock.ts';
import { startHost, type RunningHost } from './server.ts';

/** What the browser host needs to run. */
export interface HostRunOptions {
  db: string;
  rendererDir: string;
  port?: number;
  secretStore?: SecretStore;
  say?: (line: string) => void;
  /** Runs the DNS watch (resolvers of this run in `servers`); absent: no DNS query is sent. */
  dnsWatch?: DnsWatchOptions;
  /** Channels' group wait (as `sync --watch --group-wait`): new alerts go once none came for this long. */
  groupWaitMs?: number;
  /** Runs the live checks beside the DNS watch (main/core/livechecks). */
  liveChecks?: LiveCheckOptions;
  /**
   * The engine's and the mirror's time (default the system's): an end-to-end test moves it on by the alert
   * period instead of waiting a real minute for the schedule's next poll.
   */
  clock?: Pick<ApiClock, 'now'>;
}

/** How long after listening the engine starts when no window has asked for its first screen yet. */
const ENGINE_START_FALLBACK_MS = 1_000;

/** A running browser host with its facade (the demo adds its account through it). */
export interface HostRun {
  app: Authwatch;
  mirror: Mirror;
  host: RunningHost;
  stop(): Promise<void>;
}

/**
 * Opens the mirror, serves the renderer and the bridge on 127.0.0.1 and starts the engine's sync once the
 * first window has its first screen (or a second after listening).
 * Alerts are notified through the open window's Notification API: with no window connected they stay
 * pending and are delivered when one connects.
 */
export async function runHost(options: HostRunOptions): Promise<HostRun> {
  const say = options.say ?? ((line: string) => process.stderr.write(line + '\n'));
  if (!existsSync(options.rendererDir))
    throw new Error(
      `The renderer is not built (${options.rendererDir} is missing): run npm run build first.`,
    );
  let windows = () => 0;
  let runtime: Runtime;
  try {
    // The host syncs, so it is the mirror's one writer (the CLI's status, alerts and export still read).
    runtime = openRuntime({
      db: options.db,
      role: 'writer',
      purpose: 'Authwatch (browser host)',
      // The OS keychain, else tokens for this session only (never a file): said once, in one line.
      secrets: options.secretStore ?? 'keychain',
      say,
      notifier: {
        channel: 'browser',
        notify: () => {
          if (windows() === 0) throw new Error('no window is open');
        },
        notifySummary: () => {
          if (windows() === 0) throw new Error('no window is open');
        },
      },
      logger: { info: () => undefined, warn: () => undefined, error: (m) => say(`authwatch: ${m}`) },
      ...(options.dnsWatch ? { dnsWatch: options.dnsWatch } : {}),
      ...(options.groupWaitMs === undefined
        ? {}
        : { delivery: { sender: { gatherQuietMs: options.groupWaitMs } } }),
      ...(options.liveChecks ? { liveChecks: options.liveChecks } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  } catch (error) {
    if (error instanceof MirrorBusyError) throw new Error(`${error.message} Stop it first.`);
    throw error;
  }
  const { app, mirror } = runtime;
  let engineStarted = false;
  const startEngine = () => {
    if (engineStarted) return;
    engineStarted = true;
    clearTimeout(fallback);
    runtime.start();
  };
  // What was opened so far is closed again when a later step fails (a port in use).
  let host: RunningHost;
  try {
    host = await startHost({
      methods: app,
      subscribe: (listener) => runtime.onBridgeEvent(listener),
      rendererDir: options.rendererDir,
      ...(options.port !== undefined ? { port: options.port } : {}),
      log: say,
      // The alerts that waited for a window, and the engine's first tick (every domain's plan, the DNS watch's
      // queries: 100–200 ms of this process at 1,000 domains), wait until the window's first rows are sent.
      onWindowReady: () => {
        startEngine();
        void app.deliverPending();
      },
    });
  } catch (error) {
    await runtime.close().catch(() => undefined);
    throw error;
  }
  windows = host.windows;
  // No window yet (opened later, or never: --no-open on a server): the engine starts by itself.
  const fallback = setTimeout(startEngine, ENGINE_START_FALLBACK_MS);
  return {
    app,
    mirror,
    host,
    async stop() {
      clearTimeout(fallback);
      await host.close();
      await runtime.close();
    },
  };
}

/** Chromium-family browsers that can open the host as an app window, in order of preference. */
const BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * A page in a private folder (0700, the file 0600) that sends the browser on to `url`: the browser's command
 * line, which every user can read in `ps`, then names this file instead of the link with the run's secret.
 * Removed after a minute, by when the browser has read it.
 */
function privateLauncher(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-open-'));
  const file = join(dir, 'open.html');
  const href = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Authwatch</title>`,
    { mode: 0o600 },
  );
  const remove = () => rmSync(dir, { recursive: true, force: true });
  setTimeout(remove, 60_000).unref();
  process.once('exit', remove);
  return pathToFileURL(file).href;
}

/** Opens the URL in an app-mode browser window when one is installed and a display exists; says which. */
export function openWindow(
  url: string,
  say: (line: string) => void,
  env = process.env,
  deps: { browsers?: readonly string[]; spawn?: typeof spawn } = {},
): boolean {
  const browser = (deps.browsers ?? BROWSERS).find((b) => existsSync(b));
  const display = env.DISPLAY || env.WAYLAND_DISPLAY || process.platform !== 'linux';
  if (!browser || !display) {
    say(
      browser
        ? 'No display to open a window on: open the link above in a browser on this machine.'
        : 'No Chromium-family browser found: open the link above in your browser.',
    );
    return false;
  }
  say(`Opening it in ${browser} (app mode).`);
  const start = deps.spawn ?? spawn;
  start(browser, [`--app=${privateLauncher(url)}`, '--no-first-run', '--disable-background-networking'], {
    stdio: 'ignore',
    detached: true,
  }).unref();
  return true;
}
