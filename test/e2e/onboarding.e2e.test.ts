/**
 * First run: a fresh app with no account opens on the welcome screen; a token the service refuses is
 * explained in plain words and nothing is saved; the demo owner's token, pasted with the service's bare
 * address (the form accepts any of its forms), is checked live, saved, and the user lands on the portfolio
 * as the first sync fills it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_OWNER_EMAIL } from '../../service/seed/demo.ts';
import { AccountsPage } from './pages/accounts-page.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { OverviewPage } from './pages/overview-page.ts';
import { launchChromium, openApp, type AppWindow } from './support/browser.ts';
import { startApp, startDemoService, type AppUnderTest, type DemoService } from './support/world.ts';

let service: DemoService;
let app: AppUnderTest;
let browser: Browser;
let window: AppWindow;

beforeAll(async () => {
  const launching = launchChromium();
  service = await startDemoService(inject('demoSeedDb'));
  app = await startApp(inject('rendererDir'));
  browser = await launching;
  window = await openApp(browser, app.run.host.url);
});
afterEach(() => window?.checkErrors());
afterAll(async () => {
  await window?.close();
  await browser?.close();
  await app?.close();
  await service?.stop();
});

describe('onboarding', () => {
  it('opens on the welcome screen when no account exists', async () => {
    const accounts = new AccountsPage(window.page);
    await accounts.heading('Welcome to Authwatch').waitFor();
    expect(window.page.url()).toMatch(/#\/welcome$/);
    expect(await accounts.accountList.count()).toBe(0);
    const violations = await axeViolations(window.page);
    expect(violations, describeViolations(violations)).toEqual([]);
  });

  it('explains a refused token in plain words and saves nothing', async () => {
    const accounts = new AccountsPage(window.page);
    await accounts.addAccount({
      label: 'Acme Corp',
      baseUrl: service.baseUrl,
      token: 'awt_this-token-was-never-issued-0000',
    });
    const said = accounts.main.getByText(/does not accept this token/);
    await said.waitFor();
    expect(await accounts.main.innerText()).toMatch(/Create a new API token/);
    expect(await accounts.main.innerText()).toContain('Nothing was saved.');
    expect(await accounts.token.getAttribute('aria-invalid')).toBe('true');
    // The pasted token does not stay in the form, and no account exists anywhere.
    expect(await accounts.token.inputValue()).toBe('');
    expect(await app.run.app.listAccounts()).toEqual([]);
    expect(await accounts.added.count()).toBe(0);
    expect(window.page.url()).toMatch(/#\/welcome$/);
  });

  it('adds the account with a good token (bare address) and lands on the portfolio', async () => {
    const accounts = new AccountsPage(window.page);
    await accounts.addAccount({ label: 'Acme Corp', baseUrl: service.origin, token: service.token });
    await accounts.added.waitFor();
    const card = await accounts.added.innerText();
    expect(card).toContain('Added “Acme Corp”');
    expect(card).toContain(DEMO_OWNER_EMAIL); // who the token belongs to, read live from /auth/me
    expect(await accounts.problem.count()).toBe(0);

    const saved = await app.run.app.listAccounts();
    expect(saved.map((a) => a.label)).toEqual(['Acme Corp']);
    expect(saved[0]!.baseUrl).toBe(service.baseUrl); // the bare address was completed to the API's base

    await accounts.openOverview.click();
    const overview = new OverviewPage(window.page);
    await overview.heading('Portfolio').waitFor();
    expect(window.page.url()).toMatch(/#\/$/);
    await expect.poll(() => accounts.nav.innerText()).toContain('Acme Corp');
    // The first sync (started by adding the account) fills the portfolio while the user watches.
    await overview.dataRows().first().waitFor({ timeout: 60_000 });
    expect((await overview.domainNames()).length).toBeGreaterThan(0);
  });
});
