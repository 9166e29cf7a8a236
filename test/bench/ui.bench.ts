/**
 * The renderer at scale in Chromium (issue 8 item 6): the overview of 1,000 domains and a domain page with
 * 365 days of history. The mirror is written directly (no service: the account's base URL answers nothing,
 * so the app runs its offline path) and served by the browser host; Debian's Chromium opens it. Figures are
 * measured in the page (performance.now(), navigation start or the route change → the rows or every chart
 * painted) and printed; nothing is asserted on time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { memorySecretStore } from '../../main/core/accounts/memorySecretStore.ts';
import { openMirror } from '../../main/core/mirror/index.ts';
import { runHost } from '../../main/host/run.ts';
import { launchChromium } from '../e2e/support/browser.ts';
import { buildRenderer } from '../e2e/support/renderer.ts';
import { report } from './measure.ts';

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What the benchmark measured (milliseconds are medians over the rounds). */
export interface UiFigures {
  domains: number;
  historyDays: number;
  rounds: number;
  /** Cold load: navigation start → the overview's first rows in the DOM. */
  overviewColdMs: number[];
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

/** Writes a mirror with `count` domains (health and score each) and `days` of history for domain 1. */
function writeMirror(file: string, count: number, days: number, now: number) {
  const mirror = openMirror(file, { clock: { now: () => now } });
  try {
    const account = mirror.upsertAccount({ label: 'Scale portfolio', baseUrl: 'http://127.0.0.1:9/api/v1' });
    const domains = Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      fqdn: `d${String(i + 1).padStart(4, '0')}.example`,
    }));
    const at = now - 10 * 60_000;
    mirror.writeSignal({
      accountId: account.id,
      domainId: null,
      signal: 'domains',
      payload: domains,
      fetchedAt: at,
    });
    for (const d of domains) {
      const spf = d.id % 7 !== 0;
      const bimi = d.id % 3 === 0;
      const protocols = {
        dmarc: d.id % 11 !== 0,
        spf,
        mta_sts: d.id % 2 === 0,
        tls_rpt: d.id % 2 === 0,
        bimi,
      };
      const passing = Object.values(protocols).filter(Boolean).length;
      mirror.writeSignal({
        accountId: account.id,
        domainId: d.id,
        signal: 'health',
        payload: {
          domain_id: d.id,
          fqdn: d.fqdn,
          source: 'guard_history',
          result: passing === 5 ? 'Protected' : passing >= 3 ? 'Partially protected' : 'At risk',
          protocols,
          protocols_passing: passing,
          total_protocols: 5,
          dmarc_record: protocols.dmarc ? `v=DMARC1; p=${['reject', 'quarantine', 'none'][d.id % 3]}` : null,
          scanned_at: new Date(at).toISOString(),
        },
        fetchedAt: at,
      });
      mirror.writeSignal({
        accountId: account.id,
        domainId: d.id,
        signal: 'security_score',
        payload: {
          domain_id: d.id,
          fqdn: d.fqdn,
          score: passing * 2,
          max_score: 10,
          computed_at: new Date(at).toISOString(),
        },
        fetchedAt: at,
      });
    }
    // A year of daily history for the domain the page opens.
    const dayAt = (i: number) => now - (days - 1 - i) * DAY;
    const wave = (i: number) => (Math.sin(i / 9) + 1) / 2;
    mirror.writeSignal({
      accountId: account.id,
      domainId: 1,
      signal: 'health_history',
      payload: Array.from({ length: days }, (_, i) => {
        const passing = 2 + Math.round(wave(i) * 3);
        return {
          result: passing === 5 ? 'Protected' : 'Partially protected',
          protocols: {
            dmarc: true,
            spf: passing > 2,
            mta_sts: passing > 3,
            tls_rpt: passing > 3,
            bimi: passing > 4,
          },
          protocols_passing: passing,
          total_protocols: 5,
          scanned_at: new Date(dayAt(i)).toISOString(),
        };
      }).reverse(),
      fetchedAt: at,
    });
    mirror.writeSignal({
      accountId: account.id,
      domainId: 1,
      signal: 'score_history',
      payload: {
        domain_id: 1,
        max_score: 10,
        history: Array.from({ length: days }, (_, i) => ({
          derived_score: 4 + Math.round(wave(i) * 6),
          protocols_passing: 2 + Math.round(wave(i) * 3),
          total_protocols: 5,
          scanned_at: new Date(dayAt(i)).toISOString(),
        })),
      },
      fetchedAt: at,
    });
    const timeline = Array.from({ length: days }, (_, i) => {
      const total = 2000 + Math.round(wave(i) * 3000);
      const fail = Math.round(total * 0.04 * (1 + wave(i * 3)));
      return {
        date: isoDay(dayAt(i)),
        total,
        delivered: total - fail,
        quarantined: Math.round(fail * 0.7),
        rejected: fail - Math.round(fail * 0.7),
        dmarc_pass: total - fail,
        dmarc_fail: fail,
      };
    });
    mirror.writeSignal({
      accountId: account.id,
      domainId: 1,
      signal: 'mail_volume',
      payload: { domain_id: 1, start_date: timeline[0]!.date, end_date: timeline.at(-1)!.date, timeline },
      window: { start: timeline[0]!.date, end: timeline.at(-1)!.date },
      fetchedAt: at,
    });
    return { accountId: account.id, fqdn: domains[0]!.fqdn };
  } finally {
    mirror.close();
  }
}

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
  options: { domains?: number; days?: number; rounds?: number } = {},
): Promise<UiFigures> {
  const count = options.domains ?? 1_000;
  const days = options.days ?? 365;
  const rounds = options.rounds ?? 5;
  const rendererDir = buildRenderer();
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-bench-ui-'));
  const now = Date.now();
  const { accountId, fqdn } = writeMirror(join(dir, 'mirror.db'), count, days, now);
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
    overviewColdMs: [],
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
    // Records when the table's first rows enter the DOM, from the document's navigation start.
    await context.addInitScript(() => {
      const w = window as unknown as { __rowsAt?: number };
      new MutationObserver((_, observer) => {
        if (document.querySelector('[role=table][aria-label=Domains] [role=cell]')) {
          w.__rowsAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    const domainHash = (tab: string) => `#/domain/${accountId}/1/${tab}`;
    for (let round = 0; round < rounds; round++) {
      await page.goto(run.host.url);
      await page.waitForFunction(() => (window as unknown as { __rowsAt?: number }).__rowsAt !== undefined);
      figures.overviewColdMs.push(
        await page.evaluate(() => (window as unknown as { __rowsAt: number }).__rowsAt),
      );
      if (round === 0) {
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
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;
  report(`renderer in Chromium (${count} domains; ${days} days of history; median of ${rounds}, range)`, [
    {
      name: `overview, cold load → rows (${range(figures.overviewColdMs)})`,
      value: med(figures.overviewColdMs),
      unit: 'ms',
    },
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
  void fqdn;
  return figures;
}

// `npm run bench:ui` runs this file directly.
if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`Authwatch UI benchmark — ${new Date().toISOString()}\n`);
  await benchUi();
}
