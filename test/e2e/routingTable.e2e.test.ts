/**
 * The routing table in the real renderer: routes added with their own group wait, "continue" and repeat,
 * moved up and down from the keyboard (the keyboard stays on the route moved), edited in place; the table
 * exported as a file and a bad file refused, naming its field, with the table unchanged. The screen at
 * 1280×800, light and dark, with axe's WCAG 2 A/AA check finding nothing.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();
const app = () => suite.world.app.run.app;
const SHOTS = join(SCREENSHOT_DIR, 'routing');

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`) });
    const violations = await axeViolations(page);
    expect(violations, `${name} (${scheme}):\n${describeViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the routing table', () => {
  let hook: WebhookReceiver;
  beforeAll(async () => {
    hook = await startWebhookReceiver(null);
    for (const name of ['client-a', 'night-shift'])
      await app().saveChannel({
        draft: {
          name,
          kind: 'webhook',
          url: `${hook.url}/${name}`,
          minSeverity: 'info',
          accountId: null,
          holdCriticals: false,
        },
      });
  });
  afterAll(async () => {
    await hook?.close();
  });

  it('adds routes with their group wait, reorders them from the keyboard, edits one, and exports the table', async () => {
    const { page } = await suite.window('#/settings');
    const section = page.getByRole('region', { name: 'Routing' });
    await section.getByRole('cell', { name: 'everything else' }).waitFor();

    const add = async (name: string, fill: (form: ReturnType<typeof section.getByRole>) => Promise<void>) => {
      await section.getByRole('button', { name: 'Add a route' }).click();
      const form = section.getByRole('form', { name: 'Add a route' });
      await form.getByLabel('Name').fill(name);
      await fill(form);
      await form.getByRole('button', { name: 'Add route' }).click();
      await section.getByText(`Added route “${name}”.`).waitFor();
    };
    await add('Client A', async (form) => {
      await form.getByLabel('Domain group').fill('Client A');
      await form.getByRole('checkbox', { name: 'client-a' }).check();
      await form.getByLabel('Group wait (s)').fill('45');
    });
    await add('Night shift', async (form) => {
      await form.getByLabel('Domain group').fill('Regional');
      await form.getByRole('checkbox', { name: 'client-a' }).uncheck();
      await form.getByRole('checkbox', { name: 'night-shift' }).check();
      await form.getByRole('checkbox', { name: 'Continue' }).check();
      await form.getByLabel('Repeat every (h)').fill('4');
    });
    const names = async () =>
      (await app().listRoutes()).map((r) => [r.name, r.groupWaitSeconds, r.continue, r.repeatMinutes]);
    expect(await names()).toEqual([
      ['Client A', 45, false, null],
      ['Night shift', null, true, 240],
      ['Default', null, false, null],
    ]);
    const rows = section.getByRole('row');
    await rows.filter({ hasText: 'Client A' }).getByRole('cell', { name: '45 s' }).waitFor();
    await rows
      .filter({ hasText: 'Night shift (continue)' })
      .getByRole('cell', { name: /^every 4\sh$/ })
      .waitFor();

    // From the keyboard: Night shift up to the top; the keyboard stays on it (now on its "down" button).
    const ids = (await app().listRoutes()).map((r) => r.id);
    await section.getByRole('button', { name: 'Move Night shift up' }).focus();
    await page.keyboard.press('Enter');
    await section.getByText('Moved “Night shift” up.').waitFor();
    expect((await names()).map((r) => r[0])).toEqual(['Night shift', 'Client A', 'Default']);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move Night shift down');
    // The routes are the same routes, moved (what they escalated stays sent).
    expect((await app().listRoutes()).map((r) => r.id).sort()).toEqual([...ids].sort());
    await page.keyboard.press('Enter');
    await section.getByText('Moved “Night shift” down.').waitFor();
    // Last before the default route, it can only go up: the keyboard is on that button.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move Night shift up');
    await page.keyboard.press('Enter');
    await section.getByText('Moved “Night shift” up.').waitFor();

    await section.getByRole('button', { name: 'Edit Client A' }).click();
    const edit = section.getByRole('form', { name: 'Edit route Client A' });
    await expect.poll(() => edit.getByLabel('Group wait (s)').inputValue()).toBe('45');
    await edit.getByLabel('Group wait (s)').fill('0');
    await edit.scrollIntoViewIfNeeded();
    await shoot(page, 'routing-route-edit');
    await edit.getByRole('button', { name: 'Save route' }).click();
    await section.getByText('Saved route “Client A”.').waitFor();
    expect(await names()).toEqual([
      ['Night shift', null, true, 240],
      ['Client A', 0, false, null],
      ['Default', null, false, null],
    ]);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'routing-table-reordered');

    const downloading = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Export table…' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('authwatch-routes.json');
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      routes: { name: string; channels: string[] | null; groupWaitSeconds: number | null }[];
    };
    expect(file.routes.map((r) => [r.name, r.channels, r.groupWaitSeconds])).toEqual([
      ['Night shift', ['night-shift'], null],
      ['Client A', ['client-a'], 0],
      ['Default', null, null],
    ]);

    // A file naming a channel this app lacks is refused, field named; the table is unchanged.
    const bad = { ...file, routes: [{ ...file.routes[1], channels: ['pager'] }, file.routes[2]] };
    await section.getByLabel('Routing table file to import').setInputFiles({
      name: 'routes.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(bad)),
    });
    await section
      .getByRole('alert')
      .getByText(/routes\.0\.channels\.0: no channel named “pager”.*unchanged/)
      .waitFor();
    expect((await names()).map((r) => r[0])).toEqual(['Night shift', 'Client A', 'Default']);
    await shoot(page, 'routing-import-refused');
  });
});
