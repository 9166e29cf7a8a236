/**
 * The renderer at scale in Chromium (issue 8 item 6, issue 21 item 4): the overview of 1,000 domains and a
 * domain page with 365 days of history, on a mirror holding a year of history for every domain. The mirror
 * is written directly (no service: the account's base URL answers nothing, so the app runs its offline path)
 * and served by the browser host; Debian's Chromium opens it. Figures are measured in the page
 * (performance.now(), navigation start or the route change → the rows or every chart painted) and printed;
 * nothing is asserted on time. `npm run bench:ui` also measures the first screen cold (./ui/coldStart.ts):
 * the host process started → rows, a fresh page → rows, at 1,000 and 5,000 domains.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { memorySecretStore } from '../../main/core/accounts/memorySecretStore.ts';
import { runHost } from '../../main/host/run.ts';
import { launchChromium } from '../e2e/support/browser.ts';
import { ROOT } from '../e2e/support/paths.ts';
import { buildRenderer } from '../e2e/support/renderer.ts';
import { report } from './measure.ts';
import { coldFigures, type ColdFigures } from './ui/coldStart.ts';
import { buildHostBundle } from './ui/hostProcess.ts';
import { portfolioMirror } from './ui/portfolioMirror.ts';

/** Where the bench keeps its written portfolios and its build of the host (ignored by git). */
const BENCH_DIR = join(ROOT, 'test-results', 'bench-ui');

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What the benchmark measured (milliseconds are medians over the rounds). */
export interface UiFigures {
  domains: number;
  historyDays: number;
  rounds: number;
  /** Route change from another screen → the overview's rows. */
  overviewRouteMs: number[];
  /** One keystroke in the search box → the table narrowed. */
  searchKeystrokeMs: number[];
  /** Route change → the domain page's summary with its score chart painted (365 days). */
  domainSummaryMs: number[];
  /** Route change → the mail tab with its volume chart painted (365 days). */
  domainMailMs: number[];
  /** What the screens said, for the reader to check the data was there. */
  overviewSays: string;
  mailChartSays: string;
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** What a screen shows once its data is drawn. */
type Ready =
  | { rows: true }
  /** A panel by title whose chart describes its data: its aria-label matches `label` (data, not axes). */
  | { panel: string; label: string };

/**
 * In the page: changes the hash and resolves with the ms until `ready` holds (checked every frame) and the
 * frame after it is painted.
 */
async function timeRoute(page: Page, hash: string, ready: Ready): Promise<number> {
  return page.evaluate(
    ({ hash, ready }) =>
      new Promise<number>((done, fail) => {
        const check = () => {
          if ('rows' in ready)
            return document.querySelectorAll('[role=table][aria-label=Domains] [role=cell]').length > 0;
          const panel = [...document.querySelectorAll('main section.panel')].find(
            (p) => p.querySelector('h2')?.textContent === ready.panel,
          );
          const chart = panel?.querySelector('[role=img]');
          if (!chart || !new RegExp(ready.label).test(chart.getAttribute('aria-label') ?? '')) return false;
          const canvas = chart.querySelector('canvas');
          return !!canvas && canvas.width > 0 && canvas.height > 0;
        };
        const t0 = performance.now();
        location.hash = hash;
        const deadline = t0 + 60_000;
        const tick = () => {
          // Chart.js draws synchronously when the chart is made: the next frame shows it.
          if (check()) requestAnimationFrame(() => done(performance.now() - t0));
          else if (performance.now() > deadline) fail(new Error(`${hash} did not become ready`));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { hash, ready },
  );
}

/** Measures the renderer at scale; prints the figures and returns them. */
export async function benchUi(
  options: { domains?: number; days?: number; rounds?: number; history?: 'every' | 'first' } = {},
): Promise<UiFigures> {
  const count = options.domains ?? 1_000;
  const days = options.days ?? 365;
  const rounds = options.rounds ?? 5;
  const rendererDir = buildRenderer();
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-bench-ui-'));
  const { accountId, now } = portfolioMirror(
    join(dir, 'mirror.db'),
    { count, days, history: options.history ?? 'every' },
    BENCH_DIR,
  );
  const run = await runHost({
    db: join(dir, 'mirror.db'),
    rendererDir,
    secretStore: memorySecretStore(),
    say: () => undefined,
  });
  const browser = await launchChromium();
  const figures: UiFigures = {
    domains: count,
    historyDays: days,
    rounds,
    overviewRouteMs: [],
    searchKeystrokeMs: [],
    domainSummaryMs: [],
    domainMailMs: [],
    overviewSays: '',
    mailChartSays: '',
  };
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    // tsx compiles with keepNames: functions sent to the page call __name, which only Node has.
    await context.addInitScript('window.__name = (fn) => fn;');
    const page = await context.newPage();
    const domainHash = (tab: string) => `#/domain/${accountId}/1/${tab}`;
    for (let round = 0; round < rounds; round++) {
      if (round === 0) {
        // The first screen cold is coldStart's (a fresh context each time); here the window opens once.
        await page.goto(run.host.url);
        await page.locator('[role=table][aria-label=Domains] [role=cell]').first().waitFor();
        figures.overviewSays = (await page.locator('main header p').first().innerText()).trim();
        // The window the domain page shows: the whole year.
        await page.evaluate(
          ({ start, end }) =>
            localStorage.setItem('authwatch.domainWindow', JSON.stringify({ preset: 'custom', start, end })),
          { start: isoDay(now - (days - 1) * DAY), end: isoDay(now) },
        );
      }
      const search = page.getByRole('searchbox', { name: 'Search domains' });
      figures.searchKeystrokeMs.push(
        await search.evaluate(
          (input: HTMLInputElement) =>
            new Promise<number>((done) => {
              const before = document.querySelectorAll('[role=table][aria-label=Domains] [role=row]').length;
              const t0 = performance.now();
              input.value = 'd0999';
              input.dispatchEvent(new Event('input', { bubbles: true }));
              const tick = () => {
                const now = document.querySelectorAll('[role=table][aria-label=Domains] [role=row]').length;
                if (now !== before) done(performance.now() - t0);
                else requestAnimationFrame(tick);
              };
              requestAnimationFrame(tick);
            }),
        ),
      );
      await search.fill('');
      await page.evaluate(() => (location.hash = '#/settings'));
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      figures.overviewRouteMs.push(await timeRoute(page, '#/', { rows: true }));
      figures.domainSummaryMs.push(
        await timeRoute(page, domainHash('summary'), {
          panel: 'Security score',
          label: ': [1-9]\\d{2,} readings',
        }),
      );
      figures.domainMailMs.push(
        await timeRoute(page, domainHash('mail'), { panel: 'Mail volume', label: ': [1-9][\\d,]* messages' }),
      );
      if (round === 0) {
        figures.mailChartSays =
          (await page.locator('main section.panel [role=img]').first().getAttribute('aria-label')) ?? '';
      }
      await page.evaluate(() => (location.hash = '#/'));
    }
    await context.close();
  } finally {
    await browser.close();
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  report(`renderer in Chromium (${count} domains; ${days} days of history; median of ${rounds}, range)`, [
    {
      name: `overview, route change → rows (${range(figures.overviewRouteMs)})`,
      value: med(figures.overviewRouteMs),
      unit: 'ms',
    },
    {
      name: `search, one keystroke → table (${range(figures.searchKeystrokeMs)})`,
      value: med(figures.searchKeystrokeMs),
      unit: 'ms',
    },
    {
      name: `domain summary → score chart of ${days} d painted (${range(figures.domainSummaryMs)})`,
      value: med(figures.domainSummaryMs),
      unit: 'ms',
    },
    {
      name: `domain mail tab → volume chart painted (${range(figures.domainMailMs)})`,
      value: med(figures.domainMailMs),
      unit: 'ms',
    },
  ]);
  process.stdout.write(
    `  overview says: ${figures.overviewSays}\n  mail chart says: ${figures.mailChartSays}\n`,
  );
  return figures;
}

/** Prints one portfolio's cold figures against the targets (issue 21 item 4). */
function reportCold(f: ColdFigures, rounds: number): void {
  const line = (name: string, xs: number[], target?: number) => ({
    name: `${name} (${range(xs)})${target ? ` — target < ${target} ms: ${med(xs) < target ? 'met' : 'NOT met'}` : ''}`,
    value: med(xs),
    unit: 'ms',
  });
  const big = f.domains >= 5_000;
  report(
    `first screen, fresh browser context (${f.domains.toLocaleString('en')} domains, ${f.historyDays} days of history each${f.pendingAlerts ? `; ${f.pendingAlerts} alerts pending at each host start` : ''}; median of ${rounds}, range; load ${load()})`,
    [
      ...(f.startToRowsMs.length
        ? [
            line('host process start → rows painted', f.startToRowsMs, big ? undefined : 800),
            line('  of which start → host listening', f.startToListeningMs),
            line(
              'fresh host: first overviewPage call, sent → answer event in the page',
              f.coldOverviewCallMs,
              big ? 100 : undefined,
            ),
            line('  sent → the app’s handler done with it (the rows made)', f.coldOverviewHandledMs),
            line('  the same from a WebSocket client, no browser (the host’s part)', f.hostColdCallMs),
          ]
        : []),
      line('page → rows painted (host running)', f.pageToRowsMs, big ? undefined : 400),
      line('overviewPage call, sent → answer event in the page (host running)', f.overviewCallMs),
      line('  sent → the app’s handler done with it (host running)', f.overviewHandledMs),
      { name: 'overviewPage answer', value: f.overviewChars / 1024, unit: 'KiB' },
    ],
  );
}

/**
 * The first screen cold at 1,000 and 5,000 domains (or only `domains`), on portfolios with history for every
 * domain; `pendingAlerts`: every seeded alert waits for the window, as after a long time away.
 */
export async function benchUiStart(
  options: { rounds?: number; domains?: number; pendingAlerts?: boolean } = {},
): Promise<ColdFigures[]> {
  const rounds = options.rounds ?? 7;
  const rendererDir = buildRenderer();
  const bundle = await buildHostBundle(join(BENCH_DIR, 'main'));
  const browser = await launchChromium();
  const all: ColdFigures[] = [];
  try {
    for (const portfolio of [
      { count: 1_000, days: 365, history: 'every' as const },
      // Five times the domains, with the 90 days a first sync backfills.
      { count: 5_000, days: 90, history: 'every' as const },
    ]) {
      if (options.domains !== undefined && portfolio.count !== options.domains) continue;
      const figures = await coldFigures(browser, {
        bundle,
        rendererDir,
        cacheDir: BENCH_DIR,
        portfolio,
        rounds,
        start: true,
        pendingAlerts: options.pendingAlerts ?? false,
      });
      reportCold(figures, rounds);
      all.push(figures);
    }
  } finally {
    await browser.close();
  }
  return all;
}

// `npm run bench:ui` runs this file directly (`-- --only=start` or `--only=screens` for one half,
// `--rounds=N` for fewer or more rounds, `--domains=1000` for one portfolio's start, `--pending-alerts` for
// starts that meet every seeded alert still waiting for a window).
if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = (name: string) =>
    process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
  const only = flag('only');
  const rounds = flag('rounds') === undefined ? undefined : Number(flag('rounds'));
  const domains = flag('domains') === undefined ? undefined : Number(flag('domains'));
  process.stdout.write(`Authwatch UI benchmark — ${new Date().toISOString()} (load ${load()})\n`);
  if (only !== 'screens')
    await benchUiStart({
      ...(rounds === undefined ? {} : { rounds }),
      ...(domains === undefined ? {} : { domains }),
      pendingAlerts: process.argv.includes('--pending-alerts'),
    });
  if (only !== 'start') await benchUi(rounds === undefined ? {} : { rounds });
}
