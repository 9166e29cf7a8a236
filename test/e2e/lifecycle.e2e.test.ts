/**
 * The alert lifecycle in the real renderer: "Silence alerts like this…" from an alert (prefilled with its
 * domain and rule) marks it silenced; an acknowledgement with a note shows in the alert's history; Settings
 * → Notifications shows the routing table and answers "Which route would this alert take?" for that alert.
 * Each screen at 1280×800, light and dark, with axe's WCAG 2 A/AA check finding nothing.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { AlertsPage } from './pages/alerts-page.ts';
import { shootAccessible } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();
const app = () => suite.world.app.run.app;
const DOMAIN = 'acme.example';
const SHOTS = join(SCREENSHOT_DIR, 'lifecycle');

const shoot = (page: Page, name: string) => shootAccessible(page, SHOTS, name);

describe('the alert lifecycle', () => {
  let hook: WebhookReceiver;
  beforeAll(async () => {
    hook = await startWebhookReceiver(null);
  });
  afterAll(async () => {
    await hook?.close();
  });

  const spfAlert = async () =>
    (await app().listAlerts({ accountId: suite.world.accountId, open: true })).find(
      (a) => a.fqdn === DOMAIN && a.rule === 'protocol_disconnected',
    );

  it('silences alerts like one from the alert itself, and shows it silenced', async () => {
    await suite.world.service.setRecord(DOMAIN, 'spf', null);
    await suite.world.service.scan();
    await app().syncNow({ accountId: suite.world.accountId });
    const alert = (await spfAlert())!;
    expect(alert).toBeDefined();

    const { page } = await suite.window('#/alerts');
    const inbox = new AlertsPage(page);
    const row = inbox.row(DOMAIN, alert.title);
    await row.waitFor();
    const details = await inbox.details(row);
    const lifecycle = details.getByRole('region', { name: 'Silence and acknowledgement' });
    await lifecycle.getByRole('button', { name: 'Silence alerts like this…' }).click();
    const form = lifecycle.getByRole('form', { name: 'Silence alerts like this' });
    await form.getByText(`Alerts on ${DOMAIN} from rule protocol_disconnected`).waitFor();
    await form.getByLabel('Reason').fill('moving DNS to the new provider');
    await form.getByRole('button', { name: 'Silence', exact: true }).click();
    await lifecycle.getByText(/Silenced\s+by .* \(“moving DNS to the new provider”\) until/).waitFor();

    const [silence] = await app().listSilences();
    expect(silence).toMatchObject({
      state: 'active',
      reason: 'moving DNS to the new provider',
      matchers: { domain: DOMAIN, rule: 'protocol_disconnected', accountId: suite.world.accountId },
    });
    // Two hours from the click (the start is the facade's now, the end the form's).
    expect(Date.parse(silence!.endsAt) - Date.parse(silence!.startsAt)).toBeGreaterThan(
      2 * 3_600_000 - 60_000,
    );
    expect(Date.parse(silence!.endsAt) - Date.parse(silence!.startsAt)).toBeLessThanOrEqual(2 * 3_600_000);
    await lifecycle.scrollIntoViewIfNeeded();
    await shoot(page, 'silenced-alert');
  });

  it('acknowledges with a note, shown in the alert’s history', async () => {
    const alert = (await spfAlert())!;
    const { page } = await suite.window('#/alerts');
    const inbox = new AlertsPage(page);
    const row = inbox.row(DOMAIN, alert.title);
    await row.waitFor();
    const details = await inbox.details(row);
    const lifecycle = details.getByRole('region', { name: 'Silence and acknowledgement' });
    const form = lifecycle.getByRole('form', { name: 'Acknowledge with a note' });
    await form.getByLabel('Note').fill('Provider ticket #4411, back by noon');
    await form.getByRole('button', { name: 'Acknowledge' }).click();
    const history = lifecycle.getByRole('list', { name: 'Acknowledgement history' });
    const entry = history.getByRole('listitem').filter({ hasText: '“Provider ticket #4411, back by noon”' });
    await entry.waitFor();
    expect(await entry.innerText()).toMatch(/^Acknowledged by \S+, /);
    expect((await app().alertLifecycle({ id: alert.id })).acknowledgements).toMatchObject([
      { action: 'acknowledged', note: 'Provider ticket #4411, back by noon' },
    ]);
    await lifecycle.scrollIntoViewIfNeeded();
    await shoot(page, 'acknowledged-with-note');
  });

  it('shows the routing table and which route an alert would take', async () => {
    const alert = (await spfAlert())!;
    await app().saveChannel({
      draft: {
        name: 'acme-hook',
        kind: 'webhook',
        url: hook.url,
        minSeverity: 'info',
        accountId: null,
        holdCriticals: false,
      },
    });
    const { page } = await suite.window('#/settings');
    const section = page.getByRole('region', { name: 'Routing' });
    await section.waitFor();
    await section.getByRole('cell', { name: 'everything else' }).waitFor();

    await section.getByRole('button', { name: 'Add a route' }).click();
    const form = section.getByRole('form', { name: 'Add a route' });
    await form.getByLabel('Name').fill('Acme team');
    await form.getByLabel('Domain', { exact: true }).fill(DOMAIN);
    await form.getByRole('checkbox', { name: 'acme-hook' }).check();
    await form.getByRole('button', { name: 'Add route' }).click();
    await section.getByText('Added route “Acme team”.').waitFor();
    await section.getByRole('row').filter({ hasText: 'Acme team' }).waitFor();

    await section
      .getByRole('combobox', { name: 'Which route would this alert take?' })
      .selectOption(String(alert.id));
    const answer = section.getByRole('status').filter({ hasText: 'It takes' });
    await answer.getByText(/It takes “Acme team” → acme-hook\./).waitFor();
    // Times are said one way everywhere: relative (the exact time on hover), never an ISO instant.
    const said = (await answer.textContent())!.replace(/\s+/g, ' ');
    expect(said).toMatch(/held by the silence “moving DNS to the new provider” by \S+ until in 2 hours\./);
    expect(said).not.toMatch(/\d{4}-\d\d-\d\dT/);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'routing-table');
  });
});
