/**
 * The shape of every e2e file: ONE service + app (demo account added, first sync done) and ONE Chromium,
 * started in beforeAll and stopped in afterAll; windows (browser contexts) are opened per test and closed
 * with it, so a page error fails the test that caused it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import type { Browser } from 'playwright-core';
import type { HostRunOptions } from '../../../main/host/run.ts';
import { launchChromium, openApp, type AppWindow, type WindowOptions } from './browser.ts';
import { E2E_DIR } from './paths.ts';
import { startDemoWorld, type DemoWorld, type WorldDns } from './world.ts';

/** What a spec gets from demoSuite(). */
export interface DemoSuite {
  readonly world: DemoWorld;
  readonly browser: Browser;
  /** Opens a window of its own on the app (closed after the test). */
  open(options?: WindowOptions): Promise<AppWindow>;
  /**
   * The file's shared window (1280×800, light), reset to `hash` with no saved filters: opening a browser
   * context costs seconds on a loaded machine, a reload a fraction of that.
   */
  window(hash?: string): Promise<AppWindow>;
}

/** Starts the demo world (with `dns`: the service's zone over DNS and the app's DNS watch) and Chromium. */
export function demoSuite(
  options: {
    world?: boolean;
    dns?: WorldDns;
    /** Channels' group wait (default the app's 20 s). */ groupWaitMs?: number;
    /** The app's clock (default the system's): a test moves it on instead of waiting. */
    clock?: HostRunOptions['clock'];
  } = {},
): DemoSuite {
  let world: DemoWorld | undefined;
  let browser: Browser | undefined;
  let windows: AppWindow[] = [];
  let shared: AppWindow | undefined;

  beforeAll(async () => {
    const launching = launchChromium();
    try {
      if (options.world !== false)
        world = await startDemoWorld(inject('demoSeedDb'), inject('rendererDir'), {
          ...(options.dns ? { dns: options.dns } : {}),
          ...(options.groupWaitMs === undefined ? {} : { groupWaitMs: options.groupWaitMs }),
          ...(options.clock ? { clock: options.clock } : {}),
        });
    } finally {
      browser = await launching;
    }
  });
  // A failed test leaves a picture of every window it had open, for the person reading the failure.
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      const dir = join(E2E_DIR, 'failures');
      mkdirSync(dir, { recursive: true });
      const name = task.name.replace(/[^\w]+/g, '-').slice(0, 80);
      const all = [...windows, ...(shared ? [shared] : [])];
      for (const [i, w] of all.entries())
        await w.page
          .screenshot({ path: join(dir, `${name}-${i}.png`), fullPage: true })
          .catch(() => undefined);
    });
  });
  afterEach(async () => {
    const open = windows;
    windows = [];
    for (const w of open) await w.close();
    shared?.checkErrors();
  });
  afterAll(async () => {
    await shared?.close();
    await browser?.close();
    await world?.close();
  });

  return {
    get world() {
      if (!world) throw new Error('the demo world is not started');
      return world;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not started');
      return browser;
    },
    async open(windowOptions = {}) {
      if (!world) throw new Error('the demo world is not started');
      const w = await openApp(this.browser, world.app.run.host.url, windowOptions);
      windows.push(w);
      return w;
    },
    async window(hash = '#/') {
      if (!world) throw new Error('the demo world is not started');
      if (!shared) {
        shared = await openApp(this.browser, world.app.run.host.url);
        if (hash !== '#/') await shared.reset(hash);
      } else await shared.reset(hash);
      return shared;
    },
  };
}
