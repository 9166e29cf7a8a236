/**
 * Living with alerts in the real renderer: "Planned change…" on a domain opens the silence form prefilled for
 * it (2 hours, a reason required); the change it announces is raised and shown silenced, counted apart in
 * the header and the tray, and no channel hears of it while another domain's alert goes at once. The
 * Silences screen edits that silence and expires it early — then its alert goes, once. An edit made through
 * the app's own form opens a short silence of the alert it causes ("Opened by your edit of DMARC at …"):
 * raised and shown silenced, no message; cancelled → notified once. Authors are the token's user. The
 * Silences screen at 1280×800, light and dark, with axe finding nothing.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { DomainPage } from './pages/domain-page.ts';
import { SilencesPage, silenceForm } from './pages/silences-page.ts';
import { shootAccessible } from './support/axe.ts';
import { domainChangeForm } from './support/editForms.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { DEMO_LABEL } from './support/world.ts';
import { overviewRow, serviceGet, trayOf } from './support/worldReads.ts';

// Channels send what is due at once: no 20 s group wait to sit through (the app's default).
const suite = demoSuite({ groupWaitMs: 0 });
const app = () => suite.world.app.run.app;
const DOMAIN = 'acme.example';
/** A domain nobody silences: its alert going out shows the channel works while the silenced one stays quiet. */
const CONTROL = 'acme-brand.example';
/** A domain whose DMARC record the service hosts: removing it through the app's form disconnects DMARC. */
const EDITED = 'shop.acme.example';
const REASON = 'Moving acme.example to the new DNS provider';
const SHOTS = join(SCREENSHOT_DIR, 'silences');

const shoot = (page: Page, name: string) => shootAccessible(page, SHOTS, name);

describe('silences', () => {
  let hook: WebhookReceiver;
  let owner: string;
  beforeAll(async () => {
    hook = await startWebhookReceiver(null);
    await app().saveChannel({
      draft: {
        name: 'ops-hook',
        kind: 'webhook',
        url: hook.url,
        minSeverity: 'info',
        accountId: null,
        holdCriticals: false,
      },
    });
    const me = await serviceGet<{ user: { email: string } }>(suite.world, '/auth/me');
    owner = me.data.user.email;
  });
  afterAll(async () => {
    await hook?.close();
  });

  /** The domains of the alerts every webhook body so far carried, by event type ("alert.raised acme.example"). */
  const told = () =>
    hook.received.flatMap((r) =>
      ((r.json.alerts as { domain: string | null; rule: string }[] | undefined) ?? []).map(
        (a) => `${String(r.json.type)} ${a.domain} ${a.rule}`,
      ),
    );
  const toldOf = (fqdn: string) => told().filter((t) => t.split(' ')[1] === fqdn);
  const disconnected = async (fqdn: string) =>
    (await app().listAlerts({ accountId: suite.world.accountId, open: true })).find(
      (a) => a.fqdn === fqdn && a.rule === 'protocol_disconnected',
    );

  it('“Planned change…” silences the domain: its alert is raised and shown silenced, counted apart, never sent', async () => {
    const { domainId } = await overviewRow(suite.world, DOMAIN);
    const { page } = await suite.window(`#/domain/${suite.world.accountId}/${domainId}/summary`);
    const domain = new DomainPage(page);
    await domain.heading(DOMAIN).waitFor();
    await page.getByRole('button', { name: 'Planned change…' }).click();
    const form = silenceForm(page, `Planned change on ${DOMAIN}`);
    await form.waitFor();
    expect(await form.getByLabel('Domain', { exact: true }).inputValue()).toBe(DOMAIN);
    expect([
      await form.getByLabel('How long').inputValue(),
      await form.getByLabel('Unit').inputValue(),
    ]).toEqual(['2', 'hours']);
    // A reason is required: without one nothing is saved, and the field says why.
    await form.getByRole('button', { name: 'Silence', exact: true }).click();
    await form.getByText('Say what is being changed and why').waitFor();
    expect(await app().listSilences()).toEqual([]);
    await form.getByLabel('Reason').fill(REASON);
    await form.getByRole('button', { name: 'Silence', exact: true }).click();
    const onDomain = page.getByRole('list', { name: `Silences on ${DOMAIN}` });
    await onDomain.getByText(`“${REASON}” (${owner})`).waitFor();

    const [silence] = await app().listSilences();
    expect(silence).toMatchObject({
      state: 'active',
      reason: REASON,
      author: owner,
      matchers: { accountId: suite.world.accountId, domain: DOMAIN },
      origin: null,
    });
    const lasts = Date.parse(silence!.endsAt) - Date.parse(silence!.startsAt);
    expect(lasts).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(lasts).toBeLessThanOrEqual(2 * 3_600_000);

    // The planned change happens, and another domain loses its SPF record at the same time.
    await suite.world.service.setRecord(DOMAIN, 'spf', null);
    await suite.world.service.setRecord(CONTROL, 'spf', null);
    await suite.world.service.scan();
    await app().syncNow({ accountId: suite.world.accountId });
    const alert = (await disconnected(DOMAIN))!;
    expect(alert).toBeDefined();
    expect((await app().alertLifecycle({ id: alert.id })).silencedBy).toMatchObject({
      kind: 'silence',
      id: silence!.id,
      author: owner,
    });
    await expect
      .poll(() => toldOf(CONTROL), { timeout: 30_000 })
      .toContain(`alert.raised ${CONTROL} protocol_disconnected`);
    expect(toldOf(DOMAIN)).toEqual([]);

    // Counted apart, the same number in the header and the tray.
    const { silenced } = await app().silencedCount();
    expect(silenced).toBeGreaterThanOrEqual(1);
    await expect.poll(() => domain.sidebarSilenced(), { timeout: 10_000 }).toBe(`${silenced} silenced`);
    expect((await trayOf(suite.world)).tooltip).toContain(`; ${silenced} silenced`);
    await onDomain.scrollIntoViewIfNeeded();
    await shoot(page, 'planned-change-on-domain');
  });

  it('the Silences screen edits the silence and expires it early: then its alert is sent, once', async () => {
    const { page } = await suite.window('#/');
    const screen = new SilencesPage(page);
    await screen.open();
    const row = screen.row('Active', REASON);
    await row.waitFor();
    const { silenced } = await app().silencedCount();
    expect(await screen.cells(row)).toMatchObject({
      'Alerts it holds': `Alerts on ${DOMAIN} of account ${DEMO_LABEL}`,
      By: owner,
      Until: 'in 2 hours',
      'Open alerts held': `${silenced} ${silenced === 1 ? 'alert' : 'alerts'}`,
    });
    // Exact time on hover.
    expect(await row.locator('td time').nth(1).getAttribute('title')).toMatch(/\d{4}.*UTC/);
    await shoot(page, 'silences-screen');

    await row.getByRole('button', { name: `Edit silence “${REASON}”` }).click();
    const form = silenceForm(page, 'Edit silence');
    await form.waitFor();
    expect(await form.getByLabel('Reason').inputValue()).toBe(REASON);
    await form.getByLabel('Reason').fill(`${REASON} (takes longer)`);
    await form.getByLabel('Ends').selectOption('for');
    await form.getByLabel('How long').fill('4');
    await form.getByRole('button', { name: 'Save silence' }).click();
    const edited = screen.row('Active', `${REASON} (takes longer)`);
    await edited.getByText('in 4 hours').waitFor();
    await shoot(page, 'silences-screen-edited');
    const [after] = await app().listSilences();
    expect(after).toMatchObject({ reason: `${REASON} (takes longer)`, state: 'active' });

    expect(toldOf(DOMAIN)).toEqual([]);
    await edited.getByRole('button', { name: /^Expire now/ }).click();
    await screen.row('Expired', `${REASON} (takes longer)`).getByText(`expired early by ${owner}`).waitFor();
    await expect
      .poll(() => toldOf(DOMAIN).filter((t) => t.endsWith('protocol_disconnected')), { timeout: 30_000 })
      .toEqual([`alert.raised ${DOMAIN} protocol_disconnected`]);
    await expect.poll(() => screen.sidebarSilenced(), { timeout: 10_000 }).toBeNull();
    expect((await trayOf(suite.world)).tooltip).not.toContain('silenced');
    await shoot(page, 'silences-screen-expired');
  });

  it(
    'an edit in the app silences the alert it causes (shown, not sent); cancelling sends it once',
    { timeout: 120_000 },
    async () => {
      const { page, form, domainId } = await domainChangeForm(
        suite,
        EDITED,
        'Hosted DMARC',
        'Remove the hosted DMARC record',
      );
      await form.getByRole('button', { name: 'Remove the hosted DMARC record' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: `Type ${EDITED} to confirm` }).fill(EDITED);
      await dialog.getByRole('button', { name: 'Remove the hosted DMARC record' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await form
        .getByRole('status')
        .filter({ hasText: /status 20\d/ })
        .waitFor();

      const opened = (await app().listSilences()).find((s) => s.origin !== null)!;
      expect(opened).toMatchObject({
        state: 'active',
        author: owner,
        matchers: {
          accountId: suite.world.accountId,
          domain: EDITED,
          rules: expect.arrayContaining(['protocol_disconnected', 'health_regressed', 'score_dropped']),
        },
        origin: { kind: 'edit', operation: 'deleteHostedDmarc', protocol: 'dmarc' },
      });
      const lasts = Date.parse(opened.endsAt) - Date.parse(opened.startsAt);
      expect(lasts).toBe(30 * 60_000);

      // The service's next scan sees the record gone: the alert is raised, and shown silenced by the edit.
      await suite.world.service.scan();
      await app().syncNow({ accountId: suite.world.accountId });
      const alert = (await disconnected(EDITED))!;
      expect(alert).toMatchObject({ details: { protocol: 'dmarc' } });
      expect((await app().alertLifecycle({ id: alert.id })).silencedBy).toMatchObject({ id: opened.id });

      const domain = new DomainPage(page);
      await domain.open(suite.world.accountId, domainId, EDITED);
      const onDomain = page.getByRole('list', { name: `Silences on ${EDITED}` });
      const line = onDomain.getByRole('listitem').filter({ hasText: 'Opened by your edit of DMARC at' });
      await line.waitFor();
      expect(await line.innerText()).toMatch(
        /Opened by your edit of DMARC at \d\d:\d\d \(hosted record removed\)/,
      );
      await shoot(page, 'edit-silence-on-domain');

      const screen = new SilencesPage(page);
      await screen.open();
      await screen.row('Active', 'Opened by your edit of DMARC at').waitFor();
      await shoot(page, 'silences-screen-edit');

      // Nothing was sent of it, while the sender is demonstrably working (the CONTROL alert went at once).
      expect(toldOf(EDITED)).toEqual([]);
      await domain.open(suite.world.accountId, domainId, EDITED);
      await line.getByRole('button', { name: /^Cancel the silence/ }).click();
      await page.getByRole('status').filter({ hasText: 'Silence ended' }).waitFor();
      await expect
        .poll(() => toldOf(EDITED).filter((t) => t.endsWith('protocol_disconnected')), { timeout: 30_000 })
        .toEqual([`alert.raised ${EDITED} protocol_disconnected`]);
      expect((await app().listSilences()).find((s) => s.id === opened.id)).toMatchObject({
        state: 'expired',
        expiredBy: owner,
      });
    },
  );

  it('“Planned change…” adds a weekly maintenance window for the domain too, listed on the Silences screen', async () => {
    const { domainId } = await overviewRow(suite.world, CONTROL);
    const { page } = await suite.window(`#/domain/${suite.world.accountId}/${domainId}/summary`);
    await new DomainPage(page).heading(CONTROL).waitFor();
    await page.getByRole('button', { name: 'Planned change…' }).click();
    await page.getByRole('button', { name: 'Every week (maintenance window)' }).click();
    const form = page.getByRole('form', { name: `Maintenance window for ${CONTROL}` });
    await form.waitFor();
    expect(await form.getByLabel('Domain', { exact: true }).inputValue()).toBe(CONTROL);
    await form.getByLabel('Tue').check();
    await form.getByLabel('Opens at').fill('03:30');
    await shoot(page, 'maintenance-form-on-domain');
    await form.getByRole('button', { name: 'Add window' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Added the maintenance window “Maintenance of ${CONTROL}”.` })
      .waitFor();
    expect(await app().listMaintenance()).toMatchObject([
      {
        name: `Maintenance of ${CONTROL}`,
        matchers: { accountId: suite.world.accountId, domain: CONTROL },
        weekdays: [0, 2],
        hour: 3,
        minute: 30,
        durationMinutes: 120,
        author: owner,
      },
    ]);

    const screen = new SilencesPage(page);
    await screen.open();
    const windows = page.getByRole('region', { name: 'Maintenance windows' });
    await windows.getByRole('row').filter({ hasText: 'Sun, Tue 03:30 for 120 min' }).waitFor();
    await windows.scrollIntoViewIfNeeded();
    await shoot(page, 'silences-screen-windows');
  });
});
