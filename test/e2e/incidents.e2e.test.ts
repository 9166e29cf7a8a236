/**
 * Alerts as incidents. One sandbox change removes acme-de.example's SPF and DMARC records; after the service's
 * scan and the app's sync the inbox shows ONE incident, "DMARC and SPF disconnected", with both alerts
 * inside, each with its record before and after in words; the overview's recent activity shows the same
 * incident with its alerts. Screenshots of both screens in light and dark, and axe on each.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AlertsPage } from './pages/alerts-page.ts';
import { OverviewPage } from './pages/overview-page.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();
// Self-hosted DMARC and SPF (TXT records at the domain itself, not delegated to the service).
const DOMAIN = 'acme-de.example';
const TITLE = 'DMARC and SPF disconnected';

beforeAll(() => mkdirSync(SCREENSHOT_DIR, { recursive: true }));

describe('incidents', () => {
  it('SPF and DMARC removed in one sandbox change are one incident with two alerts, records before and after', async () => {
    const { app, service, accountId } = suite.world;
    // The user had looked at the domain (its DNS records are fetched when it is opened).
    const overview = (await app.run.app.overview({ accountId })).find((r) => r.fqdn === DOMAIN)!;
    await app.run.app.openDomain({ accountId, domainId: overview.domainId });
    const { page } = await suite.window('#/alerts');
    const inbox = new AlertsPage(page);
    await inbox.heading('Alerts').waitFor();
    await inbox.rows().first().waitFor();
    expect(await inbox.incidents().filter({ hasText: DOMAIN }).count()).toBe(0);

    await service.setRecord(DOMAIN, 'spf', null);
    await service.setRecord(DOMAIN, 'dmarc', null);
    await service.scan();
    await app.run.app.syncNow({ accountId });

    const incidents = (await app.run.app.listIncidents({ accountId, domain: DOMAIN })).filter(
      (i) => i.fqdn === DOMAIN,
    );
    expect(incidents).toHaveLength(1);
    const disconnects = incidents[0]!.alerts.filter((a) => a.rule === 'protocol_disconnected');
    expect(disconnects.map((a) => a.details.protocol).sort()).toEqual(['dmarc', 'spf']);
    expect(incidents[0]!.title).toMatch(/^DMARC and SPF disconnected/);

    // On screen, live: one incident headed in words, with both alerts inside, criticals first.
    const incident = inbox.incident(DOMAIN, TITLE);
    await incident.waitFor();
    expect(await inbox.incidents().filter({ hasText: DOMAIN }).count()).toBe(1);
    const rows = inbox.alertsOf(incident);
    expect(await rows.count()).toBe(incidents[0]!.alerts.length);
    const alertRow = (title: RegExp) =>
      rows.filter({ has: page.locator('td.what strong', { hasText: title }) });
    const spf = alertRow(/^SPF record of acme-de\.example disconnected/);
    const dmarc = alertRow(/^DMARC record of acme-de\.example disconnected/);
    expect(await spf.count()).toBe(1);
    expect(await dmarc.count()).toBe(1);
    expect(await incident.locator('.incident-head').innerText()).toMatch(
      /critical[\s\S]*Incident of \d+ alerts/,
    );

    // Each DNS alert: the record it had, and that none is published now — in words, never "(none)".
    const spfChange = await inbox.recordChange(spf);
    expect(spfChange.before).toMatch(/^v=spf1 /);
    expect(spfChange.after).toBe('No SPF record published');
    const dmarcChange = await inbox.recordChange(dmarc);
    expect(dmarcChange.before).toMatch(/^v=DMARC1;/);
    expect(dmarcChange.after).toBe('No DMARC record published');
    expect(await incident.innerText()).not.toMatch(/\(none\)|\(removed\)/);
    // Times in the one format: relative, with the local time and zone on hover.
    const time = spf.locator('td.when time').first();
    expect(await time.innerText()).toMatch(/just now|minutes? ago/);
    expect(await time.getAttribute('title')).toMatch(/2026.*\d{1,2}:\d{2}.*\b(UTC|GMT[+-]?\d*|[A-Z]{3,5})$/);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `incidents-alerts-${scheme}.png`) });
      const violations = await axeViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Acknowledging the incident acknowledges every alert in it.
    await incident.getByRole('button', { name: /^Acknowledge every alert of/ }).click();
    await inbox.message.filter({ hasText: /^Acknowledged \d+ alerts\.$/ }).waitFor();
    await expect.poll(() => inbox.state(spf)).toBe('acknowledged');
    expect(await inbox.state(dmarc)).toBe('acknowledged');
  });

  it('recent activity shows the incident with the alerts it holds', async () => {
    const { page } = await suite.window('#/');
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    const item = overview.recentActivity.getByRole('listitem').filter({ hasText: TITLE });
    await item.waitFor();
    const members = item.getByRole('list', { name: /alerts of this incident/ });
    await members.getByText('SPF record of acme-de.example disconnected').waitFor();
    await members.getByText('DMARC record of acme-de.example disconnected').waitFor();
    await overview.recentActivity.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `incidents-overview-${scheme}.png`) });
      const violations = await axeViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
