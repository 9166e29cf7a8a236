/**
 * The app's first screen as users meet it (issue 21 item 4), on a mirror that a synced portfolio leaves
 * (history for every domain): the host process started → the overview's rows painted in Chromium; the page
 * opened on a host already running → rows; and the same at 5,000 domains. Each round opens the page in a
 * new browser context (an empty cache, as a fresh browser has) and a new host process where the start is
 * measured; the context and its blank page are made before the host is spawned, and the link is opened as
 * soon as the host prints it. Figures are printed (min / median / max); nothing is asserted on time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { addProbe, watchProbe, type ProbeReading } from './pageProbe.ts';
import { portfolioMirror, type PortfolioOptions } from './portfolioMirror.ts';
import { startHostProcess, type HostProcess } from './hostProcess.ts';
import { leaveAlertsPending } from './pendingAlerts.ts';
import { firstOverviewCallMs } from './hostCall.ts';

/** One portfolio's cold figures, each a list of rounds (ms). */
export interface ColdFigures {
  domains: number;
  historyDays: number;
  /** Host process spawned → rows painted; of which spawned → listening. */
  startToRowsMs: number[];
  startToListeningMs: number[];
  /** Navigation start → rows painted, on a host already running (the page alone). */
  pageToRowsMs: number[];
  /**
   * The overview bridge call, sent → its answer's message event in the page: a fresh host's first (cold),
   * and on a running host; and sent → the app's handler done with it (the rows made).
   */
  coldOverviewCallMs: number[];
  coldOverviewHandledMs: number[];
  /** The same first call from a WebSocket client in the bench (no browser): the host's own part. */
  hostColdCallMs: number[];
  overviewCallMs: number[];
  overviewHandledMs: number[];
  /** The overview answer's size in characters. */
  overviewChars: number;
  /** Alerts left pending for each host start (0: the seeded mirror's, all delivered). */
  pendingAlerts: number;
}

/** A page in a new browser context (an empty cache, as a fresh browser has), the probe installed. */
interface FreshPage {
  /** Opens the link and returns what the probe saw; then closes the context. */
  open(url: string): Promise<ProbeReading>;
  close(): Promise<void>;
}

/**
 * Makes the new context and its blank page before the host starts: a user's browser is already running
 * when they start Authwatch (and Electron makes its window while main starts), so the figure counts the
 * host's start and the page's load, not the bench's Playwright setting up a context (200–400 ms here).
 */
async function freshPage(browser: Browser): Promise<FreshPage> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  try {
    await addProbe(context);
    const page = await context.newPage();
    return {
      async open(url) {
        try {
          const seen = watchProbe(page);
          seen.catch(() => undefined); // awaited below; a failed goto must not leave it unhandled
          // A loaded machine can take long on 5,000 domains: the bench reports it, never gives up at 30 s.
          await page.goto(url, { timeout: 180_000 });
          return await seen;
        } finally {
          await context.close();
        }
      },
      close: () => context.close(),
    };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/** Opens the host's link in a new context; returns what the probe saw. */
async function openOnce(browser: Browser, url: string): Promise<ProbeReading> {
  return (await freshPage(browser)).open(url);
}

/** Measures one portfolio: `rounds` host starts, then `rounds` page loads on the last host. */
export async function coldFigures(
  browser: Browser,
  options: {
    bundle: string;
    rendererDir: string;
    cacheDir: string;
    portfolio: PortfolioOptions;
    rounds: number;
    /** Measure the host's start too (else only page loads on one host). */
    start: boolean;
    /** Each host starts with every alert pending, as after a long time away (else all delivered). */
    pendingAlerts?: boolean;
  },
): Promise<ColdFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-bench-cold-'));
  const db = join(dir, 'mirror.db');
  const figures: ColdFigures = {
    domains: options.portfolio.count,
    historyDays: options.portfolio.days,
    startToRowsMs: [],
    startToListeningMs: [],
    pageToRowsMs: [],
    coldOverviewCallMs: [],
    coldOverviewHandledMs: [],
    hostColdCallMs: [],
    overviewCallMs: [],
    overviewHandledMs: [],
    overviewChars: 0,
    pendingAlerts: 0,
  };
  let host: HostProcess | null = null;
  try {
    portfolioMirror(db, options.portfolio, options.cacheDir);
    const start = () => {
      // The previous host delivered them when its page connected: each start meets the whole backlog.
      if (options.pendingAlerts) figures.pendingAlerts = leaveAlertsPending(db);
      return startHostProcess(options.bundle, { db, rendererDir: options.rendererDir });
    };
    if (options.start) {
      for (let round = 0; round < options.rounds; round++) {
        const page = await freshPage(browser);
        try {
          host = await start();
        } catch (error) {
          await page.close();
          throw error;
        }
        // The link is opened as soon as the host printed it.
        const seen = await page.open(host.url);
        figures.startToRowsMs.push(seen.timeOrigin + seen.rowsPaintedAt - host.spawnedAt);
        figures.startToListeningMs.push(host.listeningAt - host.spawnedAt);
        if (seen.overviewCall) {
          figures.coldOverviewCallMs.push(seen.overviewCall.answeredAt - seen.overviewCall.sentAt);
          figures.coldOverviewHandledMs.push(seen.overviewCall.handledAt - seen.overviewCall.sentAt);
        }
        await host.stop();
        host = null;
      }
      for (let round = 0; round < options.rounds; round++) {
        host = await start();
        figures.hostColdCallMs.push(await firstOverviewCallMs(host.url));
        await host.stop();
        host = null;
      }
    }
    host = await start();
    await openOnce(browser, host.url); // its first answers are the start's, counted above
    // A host that has answered before (its mirror's pages and code warm); each load a new context on it.
    for (let round = 0; round < options.rounds; round++) {
      const seen = await openOnce(browser, host.url);
      figures.pageToRowsMs.push(seen.rowsPaintedAt);
      if (seen.overviewCall) {
        figures.overviewCallMs.push(seen.overviewCall.answeredAt - seen.overviewCall.sentAt);
        figures.overviewHandledMs.push(seen.overviewCall.handledAt - seen.overviewCall.sentAt);
        figures.overviewChars = seen.overviewCall.chars;
      }
    }
  } finally {
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
