/**
 * Alerts as a user meets them. A sandbox change removes acme.example's SPF record; after the service's
 * scan and the app's sync, the inbox that was open all along shows the protocol_disconnected alert, the
 * overview counts it on the domain's row and in its recent activity. Then the inbox's actions:
 * acknowledge, snooze and mute, each checked on screen and in the mirror.
 */
import { describe, expect, it } from 'vitest';
import { AlertsPage } from './pages/alerts-page.ts';
import { badgeWords } from './pages/base-page.ts';
import { OverviewPage } from './pages/overview-page.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();
const DOMAIN = 'acme.example';
const HOUR = 3_600_000;

const alertsOf = (fqdn: string, rule: string) =>
  suite.world.app.run.app
    .listAlerts({ accountId: suite.world.accountId })
    .then((list) => list.filter((a) => a.fqdn === fqdn && a.rule === rule));

describe('alerts', () => {
  it('a record removed in the sandbox shows up as a protocol_disconnected alert, live', async () => {
    expect(await alertsOf(DOMAIN, 'protocol_disconnected')).toEqual([]);
    const { page } = await suite.window('#/alerts');
    const inbox = new AlertsPage(page);
    await inbox.heading('Alerts').waitFor();
    await inbox.rows().first().waitFor(); // the demo's registered-threat alert is there from the start
    expect(await inbox.rows().filter({ hasText: DOMAIN }).count()).toBe(0);
    const before = await inbox.sidebarAlertCount();

    await suite.world.service.setRecord(DOMAIN, 'spf', null);
    await suite.world.service.scan();
    await suite.world.app.run.app.syncNow({ accountId: suite.world.accountId });

    const [raised] = await alertsOf(DOMAIN, 'protocol_disconnected');
    expect(raised).toBeDefined();
    expect(raised!.title).toMatch(/SPF/);
    // No reload: the open inbox re-reads the mirror when the sync lands.
    const row = inbox.row(DOMAIN, raised!.title);
    await row.waitFor();
    expect(await row.innerText()).toMatch(/critical/);
    expect(await inbox.state(row)).toBe('open');
    await expect.poll(() => inbox.sidebarAlertCount()).toBeGreaterThan(before);

    // The overview counts it on the domain's row and lists it under recent activity.
    await inbox.navigate('Overview');
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    const open = (await suite.world.app.run.app.overview()).find((r) => r.fqdn === DOMAIN)!.openAlerts;
    expect(open).toBeGreaterThanOrEqual(1);
    const cells = overview.row(DOMAIN).getByRole('cell');
    expect(await badgeWords(cells.nth(5).locator('.badge'))).toBe(String(open));
    const spf = overview.row(DOMAIN).getByRole('listitem').filter({ hasText: 'SPF' });
    expect(await spf.textContent()).toMatch(/✕\s*SPF\s*failing/);
    await overview.recentActivity.getByText(raised!.title).waitFor();
  });

  it('acknowledges an alert: it stays in the inbox, marked acknowledged', async () => {
    const [threat] = await alertsOf('acme-pay.example', 'threat_source_appeared');
    expect(threat).toBeDefined();
    expect(threat!.acknowledgedAt).toBeNull();
    const { page } = await suite.window('#/alerts');
    const inbox = new AlertsPage(page);
    const row = inbox.row('acme-pay.example', threat!.title);
    await row.waitFor();
    await inbox.acknowledge(row);
    await inbox.message.filter({ hasText: 'Acknowledged 1 alert.' }).waitFor();
    await expect.poll(() => inbox.state(row)).toBe('acknowledged');
    expect(await row.getByRole('button', { name: /^Acknowledge / }).count()).toBe(0);
    const [after] = await alertsOf('acme-pay.example', 'threat_source_appeared');
    expect(after!.acknowledgedAt).not.toBeNull();
    expect(after!.resolvedAt).toBeNull();
  });

  it('snoozes an alert for an hour', async () => {
    const [alert] = await alertsOf(DOMAIN, 'protocol_disconnected');
    const { page } = await suite.window('#/alerts');
    const inbox = new AlertsPage(page);
    const row = inbox.row(DOMAIN, alert!.title);
    await row.waitFor();
    const clicked = Date.now();
    await inbox.snooze(row, '1 hour');
    await inbox.message.filter({ hasText: /^Snoozed/ }).waitFor();
    await expect.poll(() => inbox.state(row)).toBe('snoozed');
    expect(await row.innerText()).toMatch(/until/);
    const [after] = await alertsOf(DOMAIN, 'protocol_disconnected');
    const until = Date.parse(after!.snoozedUntil!);
    expect(until).toBeGreaterThan(clicked + HOUR - 60_000);
    expect(until).toBeLessThan(Date.now() + HOUR + 60_000);
  });

  it('mutes the domain for 24 hours, and unmutes it', async () => {
    const [alert] = await alertsOf(DOMAIN, 'protocol_disconnected');
    const { page } = await suite.window('#/alerts');
    const inbox = new AlertsPage(page);
    const row = inbox.row(DOMAIN, alert!.title);
    await row.waitFor();
    await inbox.muteDomain(row, 'Mute for 24 hours');
    await inbox.message.filter({ hasText: `Muted ${DOMAIN} for 24 hours.` }).waitFor();
    const details = await inbox.details(row);
    await details.getByText(`${DOMAIN} is muted until`).waitFor();
    const detail = await suite.world.app.run.app.domainDetail({
      accountId: suite.world.accountId,
      domainId: alert!.domainId!,
    });
    expect(detail?.muted?.until).toBeTruthy();
    expect(Date.parse(detail!.muted!.until!)).toBeGreaterThan(Date.now() + 23 * HOUR);

    await details.getByRole('button', { name: 'Unmute domain' }).click();
    await inbox.message.filter({ hasText: `Unmuted ${DOMAIN}.` }).waitFor();
    const unmuted = await suite.world.app.run.app.domainDetail({
      accountId: suite.world.accountId,
      domainId: alert!.domainId!,
    });
    expect(unmuted?.muted ?? null).toBeNull();
  });
});
