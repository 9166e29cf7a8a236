/**
 * What the UI benchmark watches inside the page, installed before any of the app's scripts run: when the
 * overview's first rows enter the DOM and when the frame that shows them is painted, and how long the
 * bridge's first `overviewPage` call (the first screen's rows and headline) took — sent on the WebSocket →
 * its answer's message event in the page, and → the app's handler done with it — and how large it was.
 * Times are the page's performance.now() (navigation start = 0).
 */
import type { BrowserContext, Page } from 'playwright-core';

/** What the probe saw in one page load. */
export interface ProbeReading {
  /** Epoch ms of the page's navigation start (performance.timeOrigin). */
  timeOrigin: number;
  /** Navigation start → rows in the DOM, and → the frame after them (what the user sees). */
  rowsAt: number;
  rowsPaintedAt: number;
  /**
   * The first overview bridge call: sent; its answer's message event, before the app's handler runs; the
   * app's handler done (with the microtasks it ran: the rows made); the answer's size in characters.
   */
  overviewCall: { sentAt: number; answeredAt: number; handledAt: number; chars: number } | null;
}

type ProbeWindow = Window & {
  __probe?: Partial<ProbeReading> & { overviewCall?: ProbeReading['overviewCall'] };
};

/** The probe's source: runs in the page before the app (no closures over the bench's scope). */
function installProbe() {
  const w = window as ProbeWindow;
  const probe: NonNullable<ProbeWindow['__probe']> = { timeOrigin: performance.timeOrigin };
  w.__probe = probe;
  new MutationObserver((_, observer) => {
    if (!document.querySelector('[role=table][aria-label=Domains] [role=cell]')) return;
    probe.rowsAt = performance.now();
    observer.disconnect();
    // rAF runs before the frame's paint; the task queued from it runs after that paint.
    requestAnimationFrame(() =>
      setTimeout(() => {
        probe.rowsPaintedAt = performance.now();
        // Tells the bench without it evaluating anything in the page meanwhile (see watchProbe).
        console.debug('authwatch-probe: rows painted');
      }, 0),
    );
  }).observe(document, { childList: true, subtree: true });
  let overviewId: number | null = null;
  let sentAt = 0;
  let answeredAt = 0;
  const isOverviewAnswer = (event: MessageEvent) =>
    overviewId !== null && typeof event.data === 'string' && event.data.startsWith(`{"id":${overviewId},`);
  // Listeners run in the order they were added: this one, added as the socket is made, runs before the
  // app's own handler (set after) — the answer's arrival; the one added at the first send runs after it.
  const Native = WebSocket;
  class Probed extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (event: MessageEvent) => {
        if (!answeredAt && isOverviewAnswer(event)) answeredAt = performance.now();
      });
    }
  }
  globalThis.WebSocket = Probed;
  const send = Native.prototype.send;
  const watched = new WeakSet<WebSocket>();
  Native.prototype.send = function (this: WebSocket, data) {
    if (overviewId === null && typeof data === 'string' && data.includes('"overviewPage"')) {
      const call = JSON.parse(data) as { id: number; method: string };
      if (call.method === 'overviewPage') {
        overviewId = call.id;
        sentAt = performance.now();
      }
    }
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener('message', (event: MessageEvent) => {
        if (probe.overviewCall || !isOverviewAnswer(event)) return;
        probe.overviewCall = {
          sentAt,
          answeredAt: answeredAt || performance.now(),
          handledAt: performance.now(),
          chars: (event.data as string).length,
        };
      });
    }
    return send.call(this, data);
  };
}

/** Installs the probe in every page the context opens. */
export async function addProbe(context: BrowserContext): Promise<void> {
  // tsx compiles with keepNames: functions sent to the page call __name, which only Node has.
  await context.addInitScript('window.__name = (fn) => fn;');
  await context.addInitScript(installProbe);
}

/**
 * Starts watching `page` before it navigates; resolves once the rows are painted with what the probe saw.
 * The probe says so on the console: polling it (waitForFunction) would inject Playwright's own script into
 * the page and run it on the main thread while the app loads (~20 ms in the middle of the first call, traced),
 * work no user's browser does.
 */
export async function watchProbe(page: Page): Promise<ProbeReading> {
  // A loaded machine can take long on 5,000 domains: the bench reports it, never gives up at 30 s.
  await page.waitForEvent('console', {
    predicate: (message) => message.text() === 'authwatch-probe: rows painted',
    timeout: 180_000,
  });
  return page.evaluate(() => {
    const p = (window as ProbeWindow).__probe!;
    return {
      timeOrigin: p.timeOrigin!,
      rowsAt: p.rowsAt!,
      rowsPaintedAt: p.rowsPaintedAt!,
      overviewCall: p.overviewCall ?? null,
    };
  });
}
