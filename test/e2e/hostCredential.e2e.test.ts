/**
 * The browser host's credential is scoped to its own origin: the same Chromium that holds the app visits a
 * second local server on another port (a dev server, a hostile package's listener) and that server never
 * receives the run's secret — not in a cookie, not in an address, not in any header — nor can its page open
 * the bridge. A tab of the host's own origin opened without the link is told it needs it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, openApp, type AppWindow } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { startApp, type AppUnderTest } from './support/world.ts';

let app: AppUnderTest;
let browser: Browser;
let window: AppWindow;
let other: Server;
let otherOrigin: string;
/** Every request the other server received: its address and all its headers, as text. */
const received: string[] = [];
let report: Record<string, string> | null = null;

/** The other local server's page: looks for the secret wherever this origin could see it, and tries the bridge. */
const otherPage = (bridge: string) => `<!doctype html><title>other</title><script>
(async () => {
  const out = { cookie: document.cookie, session: JSON.stringify(Object.entries(sessionStorage)),
                local: JSON.stringify(Object.entries(localStorage)) };
  out.bridge = await new Promise((resolve) => {
    const ws = new WebSocket(${JSON.stringify(bridge)}, ['authwatch.v1']);
    ws.onopen = () => resolve('open');
    ws.onclose = (e) => resolve('closed ' + e.code);
  });
  await fetch('/report', { method: 'POST', body: JSON.stringify(out) });
  await fetch('/img.png');
})();
</script>`;

beforeAll(async () => {
  const launching = launchChromium();
  app = await startApp(inject('rendererDir'));
  other = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body}`);
      if (req.url === '/report') report = JSON.parse(body) as Record<string, string>;
      res.writeHead(200, { 'Content-Type': req.url === '/' ? 'text/html' : 'text/plain' });
      res.end(req.url === '/' ? otherPage(`${app.run.host.origin.replace('http', 'ws')}/bridge`) : 'ok');
    });
  });
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  browser = await launching;
  window = await openApp(browser, app.run.host.url);
});
afterAll(async () => {
  await window?.close();
  await browser?.close();
  await app?.close();
  await new Promise((done) => other?.close(done));
});

describe('the bridge credential', () => {
  it('leaves the address bar without the secret and keeps working after a reload', async () => {
    expect(window.page.url()).not.toContain('#k=');
    await window.page.reload();
    await window.page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
    await window.page
      .getByRole('heading', { name: /welcome|portfolio|domains/i })
      .first()
      .waitFor();
  });

  it('never reaches another local port the same browser visits, whose page cannot open the bridge', async () => {
    const secret = new URL(app.run.host.url).hash.replace('#k=', '');
    expect(secret.length).toBeGreaterThan(20);
    // The app's own tab goes to the other server (and back), and a second tab of the same profile visits it.
    await window.page.goto(`${otherOrigin}/`);
    await expect.poll(() => report, { timeout: 10_000 }).not.toBeNull();
    const tab = await window.context.newPage();
    await tab.goto(`${otherOrigin}/second-tab`);
    await tab.close();
    await window.page.goBack();
    await window.page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();

    expect(received.length).toBeGreaterThanOrEqual(4);
    for (const request of received) expect(request).not.toContain(secret);
    expect(report).toMatchObject({ cookie: '', session: '[]', local: '[]' });
    expect(report!.bridge).toMatch(/^closed /);
    window.checkErrors();
  });

  it('a tab of the host opened without the link says it needs the link', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      const tab = await context.newPage();
      await tab.goto(`${app.run.host.origin}/`);
      await tab.getByRole('heading', { name: 'This window needs Authwatch’s link' }).waitFor();
      await tab.screenshot({ path: join(SCREENSHOT_DIR, `host-link-needed-${colorScheme}.png`) });
      await context.close();
    }
  });
});
