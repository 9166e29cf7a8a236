/** A second account of the demo service, added through the app and put in view in the sidebar. */
import type { Locator, Page } from 'playwright-core';
import { ALL_V1_SCOPE_IDS } from '../../../service/auth/scopes.ts';
import type { DemoSuite } from './suite.ts';

/**
 * Issues the account a token of its own (every scope), adds it at `baseUrl` (the service, or a proxy in
 * front of it), selects it in the sidebar's switcher and returns its id and its sync line.
 */
export async function addAccountInView(
  suite: DemoSuite,
  page: Page,
  label: string,
  baseUrl: string,
): Promise<{ accountId: number; line: Locator }> {
  const issued = (await suite.world.service.sandbox('POST', '/tokens', {
    scopes: [...ALL_V1_SCOPE_IDS],
    name: `e2e ${label}`,
  })) as { data: { plain_text: string } };
  const { account } = await suite.world.app.run.app.addAccount({
    label,
    baseUrl,
    token: issued.data.plain_text,
  });
  // The user looks at the new account (the sidebar's switcher appears with a second account).
  const switcher = page.getByRole('combobox', { name: 'Account in view' });
  await switcher.locator('option', { hasText: label }).waitFor({ state: 'attached' });
  await switcher.selectOption({ label });
  return { accountId: account.id, line: page.locator('.sync [data-sync]').filter({ hasText: label }) };
}
