/**
 * Every screen in light and dark: a screenshot at 1280×800 (and the overview at 1920×1080) into
 * test-results/screenshots for people to look at, and axe-core's WCAG 2 A/AA check with no violation.
 * The demo's state is made realistic first: acme.example's SPF record removed, so the inbox and the
 * overview have a fresh critical alert besides the registered threat.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainPage, type DomainTab } from './pages/domain-page.ts';
import { OverviewPage } from './pages/overview-page.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import type { AppWindow } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { disabledProblems, wordingProblems } from './support/wording.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();

interface Screen {
  name: string;
  /** The hash to open, given the demo's ids. */
  hash: (ids: Record<string, { accountId: number; domainId: number }>) => string;
  /** Resolves once the screen shows its data (not a loading state). */
  ready: (page: Page) => Promise<void>;
}

const noPanelLoading = async (page: Page) => {
  await page.locator('main section.panel').first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('main [aria-busy=true]').length === 0);
};

function domainScreen(name: string, fqdn: string, tab: DomainTab): Screen {
  const key = {
    Summary: 'summary',
    'Mail & senders': 'mail',
    DNS: 'dns',
    'TLS-RPT': 'tls',
    BIMI: 'bimi',
    Edit: 'edit',
  }[tab];
  return {
    name,
    hash: (ids) => `#/domain/${ids[fqdn]!.accountId}/${ids[fqdn]!.domainId}/${key}`,
    ready: async (page) => {
      const domain = new DomainPage(page);
      await domain.heading(fqdn).waitFor();
      if (tab !== 'Edit') await noPanelLoading(page);
      else await page.locator('main form, main [role=tabpanel], main nav').first().waitFor();
    },
  };
}

const SCREENS: Screen[] = [
  { name: 'overview', hash: () => '#/', ready: (page) => new OverviewPage(page).waitForRows() },
  domainScreen('domain-summary', 'acme-pay.example', 'Summary'),
  domainScreen('domain-mail', 'acme-pay.example', 'Mail & senders'),
  domainScreen('domain-dns', 'acme.example', 'DNS'),
  domainScreen('domain-tls', 'acme-mail.example', 'TLS-RPT'),
  domainScreen('domain-bimi', 'acme-brand.example', 'BIMI'),
  domainScreen('domain-edit', 'acme.example', 'Edit'),
  {
    name: 'alerts',
    hash: () => '#/alerts',
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
      await page.locator('main tbody tr').first().waitFor();
    },
  },
  {
    name: 'silences',
    hash: () => '#/silences',
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Silences', level: 1 }).waitFor();
      await page.getByRole('region', { name: 'Maintenance windows' }).waitFor();
    },
  },
  {
    name: 'audit',
    hash: () => '#/audit',
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
      await page.locator('main tbody tr').first().waitFor();
    },
  },
  {
    name: 'settings',
    hash: () => '#/settings',
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await page.waitForFunction(() => !document.querySelector('main [aria-busy=true]'));
    },
  },
  {
    name: 'accounts',
    hash: () => '#/accounts',
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
      await page.getByRole('region', { name: 'Your accounts' }).getByRole('listitem').first().waitFor();
    },
  },
  ...(['members', 'roles', 'tokens', 'domains', 'groups'] as const).map((section): Screen => ({
    name: `manage-${section}`,
    hash: (ids) => `#/manage/${ids['acme.example']!.accountId}/${section}`,
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Manage', level: 1 }).waitFor();
      await page.locator('main table tbody tr').first().waitFor();
      await page.waitForFunction(() => !document.querySelector('main [aria-busy=true]'));
    },
  })),
  // Welcome is the first run's screen (onboarding.e2e.test.ts checks it with no account): once an account
  // exists, its address opens the portfolio.
  {
    name: 'welcome-with-account',
    hash: () => '#/welcome',
    ready: async (page) => {
      await page.waitForFunction(() => location.hash === '#/');
      await new OverviewPage(page).waitForRows();
    },
  },
];

let ids: Record<string, { accountId: number; domainId: number }> = {};

beforeAll(async () => {
  const { app, service, accountId } = suite.world;
  await service.setRecord('acme.example', 'spf', null);
  await service.scan();
  await app.run.app.syncNow({ accountId });
  ids = Object.fromEntries((await app.run.app.overview()).map((r) => [r.fqdn, r]));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

/** Waits until every chart on the page has been drawn in the current colours. */
async function chartsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('canvas')].every((c) => c.width > 0 && c.height > 0),
  );
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * The whole screen: the app scrolls inside <main>, so a full-page shot would stop at the window's height;
 * the window is made as tall as the content instead, then put back.
 */
async function tallScreenshot(page: Page, path: string): Promise<void> {
  const height = await page.evaluate(() => document.querySelector('main')!.scrollHeight);
  await page.setViewportSize({ width: 1280, height: Math.min(Math.max(height, 800), 8000) });
  await chartsSettled(page);
  await page.screenshot({ path });
  await page.setViewportSize({ width: 1280, height: 800 });
  await chartsSettled(page);
}

let window: AppWindow | undefined;

it('the wording check finds an internal word and a number without separators when there is one', async () => {
  window ??= await suite.window();
  const { page } = window;
  await new OverviewPage(page).waitForRows();
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.id = 'e2e-wording';
    p.textContent = 'Re-read: dns_changes of 1204 messages on Nov 26, 2026 from 192.0.2.1';
    document.querySelector('main')!.append(p);
  });
  const problems = (await wordingProblems(page)).map((p) => p.rule);
  expect(problems).toEqual([
    'internal word Re-read:',
    'internal word dns_changes',
    'number without separators 1204',
  ]);
  await page.evaluate(() => document.getElementById('e2e-wording')?.remove());
});

it('the accessibility check finds a violation when there is one', async () => {
  window ??= await suite.window();
  const { page } = window;
  await new OverviewPage(page).waitForRows();
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'e2e-unlabelled';
    document.querySelector('main')!.append(input);
  });
  const violations = await axeViolations(page);
  expect(violations.map((v) => v.id)).toContain('label');
  await page.evaluate(() => document.getElementById('e2e-unlabelled')?.remove());
});

describe.each(['light', 'dark'] as const)('every screen in %s', (scheme) => {
  it.each(SCREENS.map((s) => [s.name, s] as const))(
    '%s: screenshot and no WCAG 2 A/AA violation',
    async (_, screen) => {
      // One window for the whole file, moved from screen to screen as a user clicks (a reload per
      // screen costs seconds on a loaded machine).
      window ??= await suite.window();
      const { page } = window;
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate((hash) => (location.hash = hash), screen.hash(ids));
      await screen.ready(page);
      await chartsSettled(page);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${screen.name}-${scheme}.png`) });
      await tallScreenshot(page, join(SCREENSHOT_DIR, `${screen.name}-${scheme}-full.png`));
      if (screen.name === 'overview') {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await chartsSettled(page);
        await page.screenshot({ path: join(SCREENSHOT_DIR, `overview-${scheme}-1920.png`) });
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      const violations = await axeViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
      // The words are the same in both schemes: read them once.
      if (scheme === 'light') {
        const problems = [...(await wordingProblems(page)), ...(await disabledProblems(page))];
        expect(problems, problems.map((p) => `${p.rule}: “${p.text}”`).join('\n')).toEqual([]);
      }
    },
  );
});
