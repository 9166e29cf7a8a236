/**
 * Settings → Notifications in the real renderer: add a signed webhook channel, send a test (the local
 * receiver gets it, signed), see a failing Alertmanager channel's error in words, edit the webhook's
 * minimum severity without retyping its secret, remove a channel; the metrics switch serves /metrics.
 * Screenshots (light and dark, 1280×800) go to test-results/e2e/notifications.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort } from '../support/freePort.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { E2E_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { DEMO_LABEL } from './support/world.ts';

const suite = demoSuite();
const SHOTS = join(E2E_DIR, 'notifications');
mkdirSync(SHOTS, { recursive: true });
const SECRET = 'ui-hook-secret-3e7d';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}-light.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, `${name}-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('Settings → Notifications', () => {
  let hook: WebhookReceiver;
  beforeAll(async () => {
    hook = await startWebhookReceiver(SECRET);
  });
  afterAll(async () => {
    await hook?.close();
  });

  it('adds, tests, edits and removes channels, with their state', async () => {
    const { page } = await suite.window('#/settings');
    const section = page.getByRole('region', { name: 'Notifications beyond this window' });
    await section.waitFor();

    await section.getByRole('button', { name: 'Add a channel' }).click();
    const form = section.getByRole('form', { name: 'Add a channel' });
    await form.getByLabel('Kind').selectOption('webhook');
    await form.getByLabel('Name').fill('team-hook');
    await form.getByLabel('URL').fill(hook.url);
    await form.getByLabel('Signing secret').fill(SECRET);
    await form.getByRole('button', { name: 'Add channel' }).click();
    await section.getByText('Saved “team-hook”.').waitFor();

    const row = section.getByRole('row').filter({ hasText: 'team-hook' });
    await row.getByRole('button', { name: 'Send a test' }).click();
    await section.getByText('Test message sent to “team-hook”.').waitFor();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]).toMatchObject({ signed: true, json: { type: 'test' } });
    await row.getByText(/Delivered/).waitFor();

    // An Alertmanager nobody listens on: the test fails and the row says why, in words.
    const closed = await freePort();
    await section.getByRole('button', { name: 'Add a channel' }).click();
    await form.getByLabel('Kind').selectOption('alertmanager');
    await form.getByLabel('Name').fill('am');
    await form.getByLabel('Alertmanager URL').fill(`http://127.0.0.1:${closed}`);
    await form.getByLabel('Minimum severity').selectOption('critical');
    await form.getByRole('button', { name: 'Add channel' }).click();
    const amRow = section.getByRole('row').filter({ hasText: 'am' }).filter({ hasText: 'Alertmanager' });
    await amRow.getByRole('button', { name: 'Send a test' }).click();
    await section.getByRole('alert').filter({ hasText: 'The test to “am” failed' }).waitFor();
    await amRow
      .getByText(/Failing: Alertmanager at http:\/\/127\.0\.0\.1:\d+ could not be reached/)
      .waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'channels');

    // Edit without retyping the secret: it is kept (the next test is still signed).
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = section.getByRole('form', { name: 'Edit team-hook' });
    await expect(edit.getByLabel('Signing secret').getAttribute('placeholder')).resolves.toBe(
      'kept — type to replace',
    );
    await edit.getByLabel('Minimum severity').selectOption('critical');
    await edit.getByRole('button', { name: 'Save channel' }).scrollIntoViewIfNeeded();
    await shoot(page, 'edit-channel');
    await edit.getByRole('button', { name: 'Save channel' }).click();
    await row.getByText('critical and above').waitFor();
    await row.getByRole('button', { name: 'Send a test' }).click();
    await section.getByText('Test message sent to “team-hook”.').waitFor();
    expect(hook.received[1]).toMatchObject({ signed: true, json: { type: 'test' } });

    // Removing asks first (the kit's dialog); Cancel keeps the channel, the named button removes it.
    const confirmRemove = page.getByRole('dialog', { name: 'Remove the channel “am”?' });
    await amRow.getByRole('button', { name: 'Remove' }).click();
    await confirmRemove.getByRole('button', { name: 'Cancel' }).click();
    await confirmRemove.waitFor({ state: 'hidden' });
    expect(await amRow.count()).toBe(1);
    await amRow.getByRole('button', { name: 'Remove' }).click();
    await confirmRemove.getByRole('button', { name: 'Remove am' }).click();
    await section.getByText('Removed “am”.').waitFor();
    // The notice comes before the list is read again: wait for the row to go (a race under load).
    await expect.poll(() => amRow.count()).toBe(0);

    // The metrics switch serves /metrics while it is on.
    const port = await freePort();
    await section.getByLabel('Serve /metrics on 127.0.0.1').check();
    await section.getByLabel('Metrics port').fill(String(port));
    await section.getByRole('button', { name: 'Apply' }).click();
    await section.getByText(`Serving http://127.0.0.1:${port}/metrics`).waitFor();
    const scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(scraped).toContain('authwatch_open_alerts');
    await section.getByLabel('Serve /metrics on 127.0.0.1').uncheck();
    await section.getByRole('button', { name: 'Apply' }).click();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  }, 120_000);

  it('schedules the weekly digest by an email channel in a chosen zone, and stops it', async () => {
    const { page } = await suite.window('#/settings');
    const channels = page.getByRole('region', { name: 'Notifications beyond this window' });
    await channels.getByRole('button', { name: 'Add a channel' }).click();
    const form = channels.getByRole('form', { name: 'Add a channel' });
    await form.getByLabel('Name').fill('ops-mail');
    await form.getByLabel('SMTP server').fill(`smtp://127.0.0.1:${await freePort()}`);
    await form.getByLabel('From').fill('authwatch@example.net');
    await form.getByLabel('To (comma-separated)').fill('ops@example.net');
    await form.getByRole('button', { name: 'Add channel' }).click();
    await channels.getByText('Saved “ops-mail”.').waitFor();

    const section = page.getByRole('region', { name: 'Weekly digest by email' });
    await section.getByRole('button', { name: 'Mail it weekly' }).first().click();
    const digest = section.getByRole('form', { name: /^Weekly digest of / });
    await digest.getByLabel('Day').selectOption('Monday');
    await digest.getByLabel('Time', { exact: true }).fill('08:00');
    await digest.getByLabel('Time zone').fill('Europe/Berlin');
    const mailOption = digest.getByRole('option', { name: /^ops-mail \(/ });
    await digest
      .getByLabel('By the email channel')
      .selectOption({ label: (await mailOption.textContent())! });
    await page.setViewportSize({ width: 1280, height: 800 });
    await digest.getByRole('button', { name: 'Save schedule' }).scrollIntoViewIfNeeded();
    await shoot(page, 'digest-form');
    await digest.getByRole('button', { name: 'Save schedule' }).click();
    await section.getByText(/goes Mondays at 08:00 \(Europe\/Berlin\) to “ops-mail”\./).waitFor();
    const line = section
      .getByRole('listitem')
      .filter({ hasText: 'Mondays at 08:00 (Europe/Berlin) to “ops-mail”' });
    await line.getByText(/Next: /).waitFor();
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'digest');

    // A zone that does not exist is refused in words, and the schedule stays as it was.
    await line.getByRole('button', { name: 'Change' }).click();
    await digest.getByLabel('Time zone').fill('Mars/Olympus');
    await digest.getByRole('button', { name: 'Save schedule' }).click();
    await section.getByRole('alert').filter({ hasText: '“Mars/Olympus” is not a time zone' }).waitFor();
    await digest.getByRole('button', { name: 'Cancel' }).click();

    // Removing the channel the digest goes by: the question names the digest it would stop; declined,
    // both stay.
    const opsRow = channels.getByRole('row').filter({ hasText: 'ops-mail' });
    const question = page.getByRole('dialog', { name: 'Remove the channel “ops-mail”?' });
    await opsRow.getByRole('button', { name: 'Remove' }).click();
    await question.waitFor();
    const asked = [(await question.innerText()).replace(/\s+/g, ' ')];
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect(asked[0]).toContain(
      `“ops-mail” mails the weekly digest of “${DEMO_LABEL}” (Mondays at 08:00 (Europe/Berlin)). ` +
        'Removing the channel stops that digest too',
    );
    await expect.poll(() => opsRow.getByRole('button', { name: 'Remove' }).isEnabled()).toBe(true);
    expect(await opsRow.count()).toBe(1);
    expect(await line.count()).toBe(1);

    await line.getByRole('button', { name: 'Stop' }).click();
    await section.getByText(/is no longer mailed\./).waitFor();
    expect(await line.count()).toBe(0);

    // Scheduled again, then the removal accepted: the channel and the digest go, and the page says so.
    await suite.world.app.run.app.saveDigest({
      accountId: suite.world.accountId,
      channelId: (await suite.world.app.run.app.listChannels()).find((c) => c.name === 'ops-mail')!.id,
      weekday: 1,
      hour: 8,
      minute: 0,
      timeZone: 'Europe/Berlin',
    });
    await line.waitFor();
    await opsRow.getByRole('button', { name: 'Remove' }).click();
    await question.getByRole('button', { name: 'Remove ops-mail' }).click();
    await channels
      .getByText(`Removed “ops-mail”; the weekly digest of “${DEMO_LABEL}” is no longer mailed.`)
      .waitFor();
    await channels.scrollIntoViewIfNeeded();
    await shoot(page, 'channel-removed-with-digest');
    expect(await opsRow.count()).toBe(0);
    expect(await line.count()).toBe(0);
    expect(await suite.world.app.run.app.listDigests()).toEqual([]);
  }, 120_000);
});
