/**
 * The edit forms as a user reaches them (the domain page's Edit tab, the Manage page's changes): a family in
 * "What to change", then the change in its list; and the light-then-dark screenshots the edit specs take.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { DemoSuite } from './suite.ts';
import { overviewRow } from './worldReads.ts';

/** Picks a family, then the change in its list, and waits for the change's form. */
export async function pickChange(page: Page, family: string, summary: string): Promise<Locator> {
  await page
    .getByRole('navigation', { name: 'What to change' })
    .getByRole('button', { name: family, exact: true })
    .click();
  await page
    .getByRole('list', { name: `${family} changes` })
    .getByRole('button', { name: summary })
    .click();
  const form = page.getByRole('form', { name: summary });
  await form.waitFor();
  return form;
}

/** The file's shared window on a demo domain's Edit tab, opened on a change's form. */
export async function domainChangeForm(
  suite: DemoSuite,
  fqdn: string,
  family: string,
  summary: string,
): Promise<{ page: Page; form: Locator; domainId: number }> {
  const { domainId } = await overviewRow(suite.world, fqdn);
  const { page } = await suite.window(`#/domain/${suite.world.accountId}/${domainId}/edit`);
  return { page, form: await pickChange(page, family, summary), domainId };
}

/** Full-page screenshots `<name>-light.png` and `<name>-dark.png` in `dir`; the page is left light. */
export async function shootLightDark(page: Page, dir: string, name: string): Promise<void> {
  await page.screenshot({ path: join(dir, `${name}-light.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(dir, `${name}-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}
