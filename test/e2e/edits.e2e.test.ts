/**
 * Edits as a user makes them (issue 9): acme-news.example's DMARC policy tightened from none to quarantine
 * after reading the impact preview (the service's state changed, the result shows its request id); a 422
 * from the service shown on the field it names; a destructive action cancelled with Esc and with Cancel
 * sends nothing. Screenshots of the forms (light and dark) go to test-results/e2e/edits.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();
const DOMAIN = 'acme-news.example';
const SHOTS = join(E2E_DIR, 'edits');
mkdirSync(SHOTS, { recursive: true });

async function domainIdOf(fqdn: string): Promise<number> {
  const rows = await suite.world.app.run.app.overview();
  const row = rows.find((r) => r.fqdn === fqdn);
  if (!row) throw new Error(`${fqdn} is not in the mirror`);
  return row.domainId;
}

async function livePanel(panel: 'dmarc_policy' | 'hosted_dmarc', domainId: number) {
  const result = await suite.world.app.run.app.readPanel({
    panel,
    accountId: suite.world.accountId,
    domainId,
    mode: 'refresh',
  });
  return result.data as { policy?: string; enabled?: boolean; value?: string } | null;
}

describe('edit forms', () => {
  it('tightens a domain’s DMARC policy after showing what it would have quarantined', async () => {
    const domainId = await domainIdOf(DOMAIN);
    expect((await livePanel('dmarc_policy', domainId))?.policy).toBe('none');
    const { page } = await suite.window(`#/domain/${suite.world.accountId}/${domainId}/edit`);
    const form = page.getByRole('form', { name: 'Set the DMARC enforcement policy' });
    await form.waitFor();
    await form.getByLabel(/Policy/).selectOption('quarantine');

    const impact = page.getByRole('region', { name: 'Impact preview' });
    await impact.getByText(/would have been\s+quarantined/).waitFor();
    expect(await impact.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await form.locator('pre').first().textContent()).toContain(
      `PATCH /domains/${domainId}/dmarc-policy`,
    );
    await form.getByText(/v=DMARC1; p=quarantine/).waitFor();
    await page.screenshot({ path: join(SHOTS, 'dmarc-policy-light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'dmarc-policy-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    await form.getByRole('button', { name: 'Send' }).click();
    const status = form.getByRole('status').filter({ hasText: /status 200/ });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/request\s+\S+/);
    expect((await livePanel('dmarc_policy', domainId))?.policy).toBe('quarantine');
  });

  it('shows the service’s 422 on the field it names', async () => {
    const { page } = await suite.window(`#/manage/${suite.world.accountId}`);
    await page.getByRole('button', { name: 'API tokens' }).click();
    const form = page.getByRole('form', { name: 'Create an API token' });
    await form.waitFor();
    await form.getByLabel(/^Name/).fill('e2e');
    // The document's pattern takes any word:read; the service knows no such scope and answers 422.
    await form.getByLabel(/^Scopes/).fill('nothing:read');
    await form.getByRole('button', { name: 'Send' }).click();
    const scopes = form.locator('label', { hasText: 'Scopes' });
    await scopes
      .getByRole('alert')
      .filter({ hasText: /unknown scope nothing:read/ })
      .waitFor();
    expect(await form.getByRole('status').textContent()).toMatch(/422/);
    await page.screenshot({ path: join(SHOTS, 'token-422-light.png'), fullPage: true });
  });

  it('asks before removing the hosted DMARC record; Esc and Cancel change nothing', async () => {
    const domainId = await domainIdOf(DOMAIN);
    const before = await livePanel('hosted_dmarc', domainId);
    expect(before?.enabled).toBe(true);
    const { page } = await suite.window(`#/domain/${suite.world.accountId}/${domainId}/edit`);
    await page.getByRole('button', { name: /Remove the hosted DMARC record/ }).click();
    const form = page.getByRole('form', { name: 'Remove the hosted DMARC record' });
    await form.waitFor();
    const dialog = page.getByRole('dialog');

    await form.getByRole('button', { name: /Remove the hosted DMARC record/ }).click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(DOMAIN);
    await page.screenshot({ path: join(SHOTS, 'remove-dmarc-confirm-light.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await form.getByRole('button', { name: /Remove the hosted DMARC record/ }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    expect(await form.getByRole('status').count()).toBe(0);
    expect(await livePanel('hosted_dmarc', domainId)).toEqual(before);
  });

  it('shows a created token’s plain text once, with a copy button, and drops it when dismissed', async () => {
    const { page } = await suite.window(`#/manage/${suite.world.accountId}`);
    await page.getByRole('button', { name: 'API tokens' }).click();
    const form = page.getByRole('form', { name: 'Create an API token' });
    await form.getByLabel(/^Name/).fill('e2e once');
    await form.getByLabel(/^Scopes/).fill('domains:read');
    await form.getByRole('button', { name: 'Send' }).click();
    const secretBox = form.locator('.secret');
    await secretBox.waitFor();
    const plain = (await secretBox.locator('code').textContent())!.trim();
    expect(plain.length).toBeGreaterThan(10);
    await secretBox.getByRole('button', { name: 'Copy' }).waitFor();
    // The service's answer is shown without it.
    expect(
      await form.locator('details', { hasText: 'What the service answered' }).textContent(),
    ).not.toContain(plain);
    await page.screenshot({ path: join(SHOTS, 'token-once-light.png'), fullPage: true });
    await secretBox.getByRole('button', { name: 'I have copied it' }).click();
    await secretBox.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(plain);
  });
});
