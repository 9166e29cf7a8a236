/**
 * What issue 20 asked that only unit tests covered, in the real renderer against the reference service:
 * deleting a domain or a hosted record asks for the domain's name, typed; removing an SPF include that
 * passes reported mail asks with the numbers; raising sp or pct asks; and the first sync of an account says
 * "waiting for the domain list", then "N of M domains" — seen by holding the service's answers at a proxy,
 * not by sleeping. (The offline line "Last synced … · service unreachable" is status.e2e.test.ts's last test.)
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { addAccountInView } from './support/accountInView.ts';
import { domainChangeForm } from './support/editForms.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { startHoldingProxy, type HoldingProxy } from './support/holdingProxy.ts';
import { demoSuite } from './support/suite.ts';
import { overviewRow, serviceGet, serviceWrites } from './support/worldReads.ts';

const suite = demoSuite();
let proxy: HoldingProxy | undefined;
afterAll(async () => {
  await proxy?.close();
});

const app = () => suite.world.app.run.app;
const domainIdOf = async (fqdn: string) => (await overviewRow(suite.world, fqdn)).domainId;
/** Writes the service's audit log recorded for `path` (the app's edits, sent or not). */
const writesTo = async (path: string) => (await serviceWrites(suite.world, path)).length;
const domainForm = (fqdn: string, family: string, summary: string) =>
  domainChangeForm(suite, fqdn, family, summary);

const submit = (form: Locator) => form.locator('button[type=submit]');
const dialogText = async (dialog: Locator) => ((await dialog.innerText()) ?? '').replace(/\s+/g, ' ');

/** The dialog a submit opens, after checking that the click sent nothing. */
async function asked(page: Page, form: Locator, path: string): Promise<Locator> {
  const before = await writesTo(path);
  await submit(form).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  expect(await writesTo(path)).toBe(before);
  return dialog;
}

describe('changes that block mail or delete ask first', () => {
  it('deleting a domain asks for its name, typed: a wrong name keeps the button off; then it is deleted', async () => {
    const fqdn = 'acme-old.example';
    const { page, form, domainId } = await domainForm(
      fqdn,
      'Domain',
      'Delete a domain and its hosted records',
    );
    const dialog = await asked(page, form, `/domains/${domainId}`);
    expect(await dialogText(dialog)).toContain(`${fqdn} stops being watched`);
    const typed = dialog.getByRole('textbox', { name: `Type ${fqdn} to confirm` });
    // The name field has the focus; the button named for the action is off until the name matches.
    expect(await typed.evaluate((el) => el === document.activeElement)).toBe(true);
    const confirm = dialog.getByRole('button', { name: /^Delete a domain/ });
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill('acme-old');
    expect(await confirm.isDisabled()).toBe(true);
    expect(await typed.getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Enter');
    expect(await dialog.isVisible()).toBe(true);
    expect(await writesTo(`/domains/${domainId}`)).toBe(0);

    await typed.fill(fqdn.toUpperCase());
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await form
      .getByRole('status')
      .filter({ hasText: /status 200/ })
      .waitFor();
    expect((await serviceGet(suite.world, `/domains/${domainId}`)).status).toBe(404);
  });

  it('removing the hosted DMARC record asks for the domain name too; Esc sends nothing', async () => {
    const fqdn = 'acme-news.example';
    const { page, form, domainId } = await domainForm(fqdn, 'Hosted DMARC', 'Remove the hosted DMARC record');
    const dialog = await asked(page, form, `/domains/${domainId}/hosted-dmarc`);
    await dialog.getByRole('textbox', { name: `Type ${fqdn} to confirm` }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Remove the hosted DMARC record' }).isDisabled()).toBe(
      true,
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await writesTo(`/domains/${domainId}/hosted-dmarc`)).toBe(0);
  });

  it('removing an SPF include that passes reported mail asks, with the senders and messages in numbers', async () => {
    const fqdn = 'acme-news.example';
    const { page, form, domainId } = await domainForm(fqdn, 'Hosted SPF', 'Remove an SPF include');
    const choice = form.getByLabel(/^Include/);
    const hubspot = choice.locator('option', { hasText: 'hubspot' });
    await hubspot.waitFor({ state: 'attached' });
    const include = (await hubspot.textContent())!.trim();
    await choice.selectOption({ label: include });
    // The impact preview has weighed the reported mail before the button asks.
    await page
      .getByRole('region', { name: 'SPF impact preview' })
      .getByRole('cell', { name: 'HubSpot', exact: true })
      .waitFor();
    const dialog = await asked(page, form, `/domains/${domainId}/hosted-spf`);
    const text = await dialogText(dialog);
    expect(text).toMatch(
      new RegExp(`^Remove ${include.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on ${fqdn}\\?`),
    );
    expect(text).toMatch(
      /[1-9][\d,]* reported senders? \([1-9][\d,]* messages? in the last 30 days\) would stop passing SPF or fail harder\./,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('raising sp asks; lowering pct does not; raising pct back asks, and is sent once confirmed', async () => {
    const fqdn = 'shop.acme.example';
    const tags = 'Update hosted DMARC tags';
    const first = await domainForm(fqdn, 'Hosted DMARC', tags);
    const path = `/domains/${first.domainId}/hosted-dmarc`;
    await first.form.getByLabel(/^Subdomain policy/).selectOption('reject');
    let dialog = await asked(first.page, first.form, path);
    expect(await dialogText(dialog)).toMatch(
      /^Publish sp=reject on shop\.acme\.example\? Receivers will reject mail from shop\.acme\.example that fails DMARC \(now p=quarantine\)/,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Lowering the share of mail the policy applies to blocks nothing: one click sends it.
    const { page, form } = await domainForm(fqdn, 'Hosted DMARC', tags);
    const pct = form.getByLabel(/^Percentage of mail/);
    await pct.fill('40');
    const before = await writesTo(path);
    await submit(form).click();
    await form
      .getByRole('status')
      .filter({ hasText: /status 200/ })
      .waitFor();
    expect(await writesTo(path)).toBe(before + 1);
    expect(await page.getByRole('dialog').isVisible()).toBe(false);

    // The record in force now says pct=40 (re-read after the edit); raising it back asks.
    const published = form
      .getByRole('region', { name: `Record at _dmarc.${fqdn}` })
      .locator('pre')
      .first();
    await expect.poll(() => published.innerText(), { timeout: 10_000 }).toMatch(/pct=40/);
    await pct.fill('100');
    dialog = await asked(page, form, path);
    expect(await dialogText(dialog)).toMatch(/^Publish pct=100 on shop\.acme\.example\?/);
    await dialog.getByRole('button', { name: 'Publish pct=100' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => writesTo(path)).toBe(before + 2);
  });
});

describe('the first sync of an account', () => {
  it('says "waiting for the domain list" until it arrives, then "N of M domains", then when it last synced', async () => {
    proxy = await startHoldingProxy(suite.world.service.origin);
    const listHeld = /^\/api\/v1\/domains(\?|$)/;
    proxy.hold(listHeld);
    const pay = await domainIdOf('acme-pay.example');
    const domainHeld = new RegExp(`^/api/v1/domains/${pay}/`);
    proxy.hold(domainHeld);
    const label = 'Second look';
    const { page } = await suite.window();
    const { accountId, line } = await addAccountInView(suite, page, label, `${proxy.origin}/api/v1`);
    try {
      await expect.poll(() => line.getAttribute('data-sync'), { timeout: 20_000 }).toBe('waiting_for_list');
      expect((await line.innerText()).replace(/\s+/g, ' ')).toBe(
        `${label} First sync: waiting for the domain list`,
      );
      expect(await line.innerText()).not.toMatch(/0 of 0/);
      await expect.poll(() => proxy!.held().some((p) => listHeld.test(p)), { timeout: 20_000 }).toBe(true);

      // The list arrives; one domain's answers are still held, so the sync is part-way.
      proxy.release(listHeld);
      const total = (await app().overview()).filter((r) => r.accountId === suite.world.accountId).length;
      await expect.poll(() => line.getAttribute('data-sync'), { timeout: 20_000 }).toBe('first_sync');
      const text = (await line.innerText()).replace(/\s+/g, ' ');
      const m = /First sync: (\d+) of (\d+) domains/.exec(text);
      expect(m, text).not.toBeNull();
      expect(Number(m![2])).toBe(total);
      expect(Number(m![1])).toBeLessThan(total);
      expect(await line.getByRole('progressbar', { name: 'First sync progress' }).getAttribute('max')).toBe(
        String(total),
      );

      proxy.release();
      await expect.poll(() => line.getAttribute('data-sync'), { timeout: 30_000 }).toBe('synced');
      expect((await line.innerText()).replace(/\s+/g, ' ')).toMatch(
        /Last synced (just now|\d+ seconds? ago)/,
      );
    } finally {
      await app().removeAccount({ accountId });
    }
  });
});

describe('the history backfill of a watched account (issue 37)', () => {
  it('says every domain is watched and how many have their history back-filled, then when it last synced', async () => {
    // Health and failed sources of every domain come first; the histories yield to them. Holding every
    // history read at the proxy keeps the account there: watched, its history not in yet.
    proxy ??= await startHoldingProxy(suite.world.service.origin);
    const historyHeld = /^\/api\/v1\/domains\/\d+\/(health|security-score)\/history/;
    proxy.hold(historyHeld);
    const label = 'Third look';
    const { page } = await suite.window();
    const { accountId, line } = await addAccountInView(suite, page, label, `${proxy.origin}/api/v1`);
    try {
      await expect.poll(() => line.getAttribute('data-sync'), { timeout: 30_000 }).toBe('history_backfill');
      const total = (await app().overview()).filter((r) => r.accountId === suite.world.accountId).length;
      const text = (await line.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain(`Watching all ${total} domains`);
      expect(text).toMatch(new RegExp(`History back-filled for 0 of ${total} domains`));
      expect(
        await line.getByRole('progressbar', { name: 'History backfill progress' }).getAttribute('max'),
      ).toBe(String(total));
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: join(SCREENSHOT_DIR, `sync-line-history-backfill-${scheme}.png`) });
      }
      await page.emulateMedia({ colorScheme: 'light' });

      proxy.release();
      await expect.poll(() => line.getAttribute('data-sync'), { timeout: 60_000 }).toBe('synced');
    } finally {
      await app().removeAccount({ accountId });
    }
  });
});
