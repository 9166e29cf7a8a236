/**
 * The live checks on screen (issue 34), in the real renderer against the reference world: its zone over DNS,
 * its MTA-STS policy host over HTTPS and its MX with STARTTLS, certificates of its test CA given to the app
 * through Settings → Live checks' extra CA file. The domain's Checks tab says each check's last result in
 * words with what it saw (the certificate chain, the policy file, each MX host); Settings → Live checks shows
 * the kinds and their counts. Screenshots at 1280×800, light and dark.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, describeViolations } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite({ dns: { ttl: 5, live: true } });
const app = () => suite.world.app.run.app;
const FQDN = 'acme.example';

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`) });
    const violations = await axeViolations(page);
    expect(violations, `${name} (${scheme}):\n${describeViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the Checks tab', () => {
  it('says what the MTA-STS and MX STARTTLS checks saw, with a certificate about to expire as a problem', async () => {
    suite.world.service.tls!.world.tlsWorld.setPlan(`mta-sts.${FQDN}`, { expiresInDays: 12 });
    expect(await app().checkLiveOnce()).not.toBeNull();
    const row = (await app().overview()).find((r) => r.fqdn === FQDN)!;
    const { page } = await suite.window(`#/domain/${row.accountId}/${row.domainId}/checks`);
    const sts = page.locator('[data-check="mta_sts_live"]');
    await sts.waitFor();
    expect(await sts.getAttribute('data-status')).toBe('problem');
    expect(await sts.innerText()).toMatch(/certificate of mta-sts\.acme\.example expires in 1[12] days/);
    const panel = page.getByRole('region', { name: 'MTA-STS policy (HTTPS)' });
    expect(await panel.innerText()).toMatch(/Certificate chain/);
    expect(await panel.innerText()).toMatch(/version: STSv1/);
    await shoot(page, 'live-checks-tab');
  });
});

describe('Settings → Live checks', () => {
  it('shows each kind with its counts and takes the ports', async () => {
    const { page } = await suite.window('#/settings');
    const section = page.getByRole('form', { name: 'Live checks' });
    await section.waitFor();
    expect(await section.innerText()).toMatch(/MTA-STS policy \(HTTPS\): .*with problems/);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'live-checks-settings');
  });

  it('takes how long a delivery channel may fail before it is an alert, and refuses a limit out of range', async () => {
    const { page } = await suite.window('#/settings');
    const section = page.getByRole('form', { name: 'Live checks' });
    const limit = section.getByLabel('Alert when a delivery channel has failed for (minutes)');
    await limit.waitFor();
    expect(await limit.inputValue()).toBe('60');
    await limit.fill('2');
    await section.getByRole('button', { name: 'Save live checks' }).click();
    await expect.poll(() => limit.getAttribute('aria-invalid')).toBe('true');
    await limit.scrollIntoViewIfNeeded();
    await shoot(page, 'live-checks-settings-channel-limit-error');
    await limit.fill('90');
    await section.getByRole('button', { name: 'Save live checks' }).click();
    await expect
      .poll(async () => (await app().liveChecksStatus()).settings.kinds.channelFailing?.limitMinutes)
      .toBe(90);
  });
});
