/**
 * Edits as a user makes them (issue 9): acme-news.example's DMARC policy tightened from none to quarantine
 * after reading the impact preview (the service's state changed, the result shows its request id); a 422
 * from the service shown on the field it names; a destructive action cancelled with Esc and with Cancel
 * sends nothing. Screenshots of the forms (light and dark) go to test-results/e2e/edits.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { E2E_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { pickChange } from './support/editForms.ts';

const suite = demoSuite();
const DOMAIN = 'acme-news.example';
const SHOTS = join(E2E_DIR, 'edits');
mkdirSync(SHOTS, { recursive: true });

/** Picks the option of a list whose name matches, as a user reads the list. */
async function pickOption(select: Locator, name: string | RegExp): Promise<void> {
  const option = select.locator('option', { hasText: name }).first();
  await option.waitFor({ state: 'attached' });
  await select.selectOption({ label: (await option.textContent())!.trim() });
}

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
    // The endpoint is a developer's detail, kept under a closed disclosure below the button.
    const developer = form.locator('details', { hasText: 'Developer details' });
    expect(await developer.getAttribute('open')).toBeNull();
    expect(await developer.locator('pre').textContent()).toContain(`PATCH /domains/${domainId}/dmarc-policy`);
    await form.getByText(/v=DMARC1; p=quarantine/).waitFor();
    await page.screenshot({ path: join(SHOTS, 'dmarc-policy-light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'dmarc-policy-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    // Raising enforcement asks first, with the impact in numbers and a button named for the action.
    await form.getByRole('button', { name: 'Publish DMARC policy quarantine…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(
      /would have quarantined about [\d,]+ messages? from \d+ senders?/,
    );
    await dialog.getByRole('button', { name: 'Publish p=quarantine' }).click();
    const status = form.getByRole('status').filter({ hasText: /status 200/ });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/request\s+\S+/);
    expect((await livePanel('dmarc_policy', domainId))?.policy).toBe('quarantine');
  });

  it('shows the service’s 422 on the field it names', async () => {
    const { page } = await suite.window(`#/manage/${suite.world.accountId}/changes`);
    await page.getByRole('button', { name: 'Team', exact: true }).click();
    const form = page.getByRole('form', { name: 'Invite a team member' });
    await form.waitFor();
    // A well-formed address the service refuses: a member of the team has it already.
    await form.getByLabel(/^Email address/).fill('adam.admin@acme.example');
    await form.getByLabel(/^Name/).fill('e2e');
    await pickOption(form.getByLabel(/^Role\b/), /viewer/i);
    await form.getByRole('button', { name: 'Invite member' }).click();
    const email = form.locator('.field', { hasText: 'Email address' });
    await email
      .getByRole('alert')
      .filter({ hasText: /already exists in this team/ })
      .waitFor();
    // The error is the field's description: a screen reader reads it with the field.
    const describedBy = (await email.getByRole('textbox').getAttribute('aria-describedby')) ?? '';
    expect(describedBy).toContain(await email.getByRole('alert').getAttribute('id'));
    expect(await form.getByRole('status').textContent()).toMatch(/422/);
    await page.screenshot({ path: join(SHOTS, 'invite-422-light.png'), fullPage: true });
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
    const { page } = await suite.window(`#/manage/${suite.world.accountId}/changes`);
    await page.getByRole('button', { name: 'API tokens' }).click();
    const form = page.getByRole('form', { name: 'Create an API token' });
    await form.getByLabel(/^Name/).fill('e2e once');
    await form
      .getByRole('group', { name: /^What the token may do/ })
      .getByRole('checkbox', { name: /^domains:read/ })
      .check();
    await form.getByRole('button', { name: 'Create token' }).click();
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

describe('edit previews', () => {
  async function form(fqdn: string | null, family: string, summary: string) {
    const hash =
      fqdn === null
        ? `#/manage/${suite.world.accountId}/changes`
        : `#/domain/${suite.world.accountId}/${await domainIdOf(fqdn)}/edit`;
    const { page } = await suite.window(hash);
    return { page, form: await pickChange(page, family, summary) };
  }

  /** The form itself in light and dark (the page scrolls inside its main pane, not the window). */
  async function shoot(page: Page, target: Locator, name: string) {
    const size = page.viewportSize();
    await page.setViewportSize({ width: size?.width ?? 1280, height: 2400 });
    await target.screenshot({ path: join(SHOTS, `${name}-light.png`) });
    await page.emulateMedia({ colorScheme: 'dark' });
    await target.screenshot({ path: join(SHOTS, `${name}-dark.png`) });
    await page.emulateMedia({ colorScheme: 'light' });
    if (size) await page.setViewportSize(size);
  }

  it('MTA-STS: shows the policy file (CRLF lines) and the _mta-sts record the change will publish', async () => {
    const fqdn = 'shop.acme.example';
    const { page, form: f } = await form(fqdn, 'MTA-STS', 'Replace the MTA-STS policy');
    await f.getByLabel(/^Mode/).selectOption('enforce');
    await f.getByLabel(/^Max age/).fill('1209600');
    const file = f.getByRole('region', {
      name: `Policy file at https://mta-sts.${fqdn}/.well-known/mta-sts.txt`,
    });
    const next = file.locator('pre').last();
    await next.filter({ hasText: 'mode: enforce' }).waitFor();
    expect(await next.textContent()).toMatch(
      /^version: STSv1\r\nmode: enforce\r\n(mx: \S+\r\n)+max_age: 1209600\r\n$/,
    );
    expect(await file.locator('pre').first().textContent()).toMatch(/^version: STSv1\r\nmode: testing\r\n/);
    const txt = f.getByRole('region', { name: `Record at _mta-sts.${fqdn}` });
    expect(await txt.locator('pre').last().textContent()).toMatch(/^v=STSv1; id=\d{14}$/);
    await shoot(page, f, 'preview-mta-sts');
  });

  it('hosted SPF: removing an include shows the record without it and the reported mail that stops passing', async () => {
    const { page, form: f } = await form('acme-news.example', 'Hosted SPF', 'Remove an SPF include');
    const choice = f.getByLabel(/^Include/);
    await choice.locator('option', { hasText: 'hubspot' }).waitFor({ state: 'attached' });
    await choice.selectOption({
      label: (await choice.locator('option', { hasText: 'hubspot' }).textContent())!,
    });
    const record = f.getByRole('region', { name: /^Record at acme-news\.example\.spf\./ });
    const next = record.locator('pre').last();
    await next.waitFor();
    expect(await next.textContent()).not.toContain('hubspot');
    expect(await record.locator('pre').first().textContent()).toContain('hubspot');
    const impact = page.getByRole('region', { name: 'SPF impact preview' });
    await impact.getByRole('cell', { name: 'HubSpot', exact: true }).waitFor();
    expect(await impact.textContent()).toMatch(/would get a harder SPF result/);
    expect(await impact.textContent()).toMatch(/approximation/);
    await shoot(page, f, 'preview-spf-include-removed');
  });

  it('hosted SPF: ~all → -all lists the reported sources the record does not cover as failing hard', async () => {
    const { page, form: f } = await form(
      'acme-news.example',
      'Hosted SPF',
      'Set the SPF terminal all qualifier',
    );
    await f.getByLabel(/^Mail from servers not listed/).selectOption('-all');
    const impact = page.getByRole('region', { name: 'SPF impact preview' });
    await impact.getByText(/would get a harder SPF result|No reported source would stop passing/).waitFor();
    const text = (await impact.textContent()) ?? '';
    // HubSpot and Mailchimp are covered by their includes: their mail keeps passing.
    expect(text).not.toMatch(/HubSpot.*would now fail hard/);
    await f
      .getByRole('region', { name: 'Record at acme-news.example', exact: true })
      .getByText(/ -all$/)
      .waitFor();
    await shoot(page, f, 'preview-spf-all');
  });

  it('hosted SPF: the flatten preview shows the lookups against 10 and the void lookups against 2', async () => {
    const { page, form: f } = await form(
      'acme-news.example',
      'Hosted SPF',
      'Flatten the SPF record (read-only preview)',
    );
    await f.getByRole('button', { name: 'Preview the flattened record' }).click();
    const result = f.getByRole('region', { name: 'Flatten result' });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/DNS lookups\s*\d+\s*of 10/);
    expect(await result.textContent()).toMatch(/Void lookups\s*\d+\s*of 2/);
    await shoot(page, f, 'preview-spf-flatten');
  });

  it('bulk add: lists each invalid line with its number and reason, then sends the valid names only', async () => {
    const { page, form: f } = await form(null, 'Domains', 'Add many domains');
    await f
      .getByLabel(/^Domain names/)
      .fill('e2e-preview-1.example\nnot a domain\n\ne2e-preview-2.example\nbad..name.example');
    const lines = f.getByRole('group', { name: 'Lines that are not domain names' });
    await lines.getByText(/line 2\s+not a domain — has a space/).waitFor();
    await lines.getByText(/line 5\s+bad\.\.name\.example — label 2 is empty/).waitFor();
    await shoot(page, f, 'preview-bulk-invalid');
    await lines.getByLabel('Send the 2 valid names, skip 2').check();
    const preview = (await f
      .locator('details', { hasText: 'Developer details' })
      .locator('pre')
      .textContent())!;
    expect(JSON.parse(preview.slice(preview.indexOf('{')))).toEqual({
      domains: ['e2e-preview-1.example', 'e2e-preview-2.example'],
    });
    // The button names what it does, with the count of names it sends.
    await f.getByRole('button', { name: 'Add 2 domains' }).click();
    const status = f.getByRole('status').filter({ hasText: /status 202/ });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/Skipped 2 lines: line 2 "not a domain" \(has a space\)/);
  });
});
