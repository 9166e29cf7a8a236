/**
 * One Chromium per e2e file: Debian's /usr/bin/chromium driven by playwright-core (the Electron binary and
 * Playwright's own browsers cannot be downloaded on our machines). Pages open the host's URL, whose fragment
 * carries the per-run secret; the page keeps it in its sessionStorage (a reload keeps it, a new tab needs the link).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, or AUTHWATCH_CHROMIUM when set. */
export const CHROMIUM = process.env.AUTHWATCH_CHROMIUM ?? '/usr/bin/chromium';

/** Launches the headless Chromium the suite shares. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium; .ci/run does it)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
  });
}

/** The screen size and colour scheme of one window. */
export interface WindowOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
}

/** A window on the app: a fresh context that opened the host's link (the secret in its sessionStorage). */
export interface AppWindow {
  context: BrowserContext;
  page: Page;
  /** Throws the page's uncaught errors since the last call (a screen that throws fails its test). */
  checkErrors(): void;
  /** Back to a fresh start on `hash` (default the overview): saved filters cleared, page reloaded. */
  reset(hash?: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens the app in a new browser context and waits until the shell is on screen. */
export async function openApp(
  browser: Browser,
  url: string,
  options: WindowOptions = {},
): Promise<AppWindow> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    locale: 'en-GB',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  let errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
  const window: AppWindow = {
    context,
    page,
    checkErrors() {
      const thrown = errors;
      errors = [];
      if (thrown.length > 0) throw new Error(`the page threw:\n${thrown.join('\n')}`);
    },
    async reset(hash = '#/') {
      // A goto that changes only the hash would not reload: set it, then reload the document.
      await page.evaluate((h) => {
        localStorage.clear();
        history.replaceState(null, '', h);
      }, hash);
      await page.reload();
      await page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
    },
    async close() {
      await context.close();
      window.checkErrors();
    },
  };
  return window;
}
