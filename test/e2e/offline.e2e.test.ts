/**
 * Offline review: the user looked around while the service answered; then the service stops (a plane, an
 * outage). After the app's next sync fails, every screen still renders what the mirror kept, says how old
 * it is, and the offline banner says so with the time of the last successful contact.
 */
import { describe, expect, it } from 'vitest';
import type { OverviewRow } from '../../shared/bridge/results.ts';
import { AlertsPage } from './pages/alerts-page.ts';
import { AccountsPage } from './pages/accounts-page.ts';
import { DomainPage, type DomainTab } from './pages/domain-page.ts';
import { AuditPage, SettingsPage } from './pages/other-pages.ts';
import { OverviewPage } from './pages/overview-page.ts';
import { demoSuite } from './support/suite.ts';
import { DEMO_LABEL } from './support/world.ts';

const suite = demoSuite();
type DataTab = Exclude<DomainTab, 'Edit'>;
const TABS: DataTab[] = ['Summary', 'Mail & senders', 'DNS', 'TLS-RPT', 'BIMI'];
/**
 * The panels of each tab that show data from the service (with its age) for acme-pay.example, the demo's
 * domain with a registered threat. (The summary's "Open alerts" is the app's own.)
 */
const PANELS: Record<DataTab, string[]> = {
  Summary: ['Health and protocols', 'Security score', 'Mail summary'],
  'Mail & senders': ['Mail volume', 'Senders'],
  DNS: ['Current records', 'Connection timeline', 'Record history'],
  'TLS-RPT': [
    'TLS reporting',
    'Failures by result type',
    'By sending MTA',
    'Failure details',
    'Recent reports',
  ],
  BIMI: ['BIMI readiness', 'VMC certificate'],
};
const AGE = /just now|\d+ (s|sec|min|minutes?|hours?) ago/;

let pay: OverviewRow;
let onlineNames: string[] = [];
let onlineAudit = '';

describe('offline review', () => {
  it('while the service answers, the user opens every screen (the mirror keeps what they show)', async () => {
    pay = (await suite.world.app.run.app.overview()).find((r) => r.fqdn === 'acme-pay.example')!;
    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    onlineNames = await overview.domainNames();
    expect(await overview.offlineBanner.count()).toBe(0);

    const domain = new DomainPage(page);
    for (const tab of TABS) {
      await domain.open(suite.world.accountId, pay.domainId, pay.fqdn, tab);
      for (const title of PANELS[tab]) await domain.panelAge(title).waitFor();
    }
    const audit = new AuditPage(page);
    await audit.open();
    const entries = audit.main.locator('table tbody tr');
    await entries.first().waitFor();
    onlineAudit = await entries.first().innerText();
  });

  it('with the service stopped, the overview lists the kept portfolio under the offline banner', async () => {
    await suite.world.service.stop();
    await suite.world.app.run.app.syncNow({ accountId: suite.world.accountId });
    const [status] = await suite.world.app.run.app.connectivity();
    expect(status!.online).toBe(false);

    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    await overview.offlineBanner.waitFor();
    const banner = await overview.offlineLastContact();
    expect(banner).toContain('Offline — showing the data kept on this computer');
    expect(banner).toMatch(new RegExp(`last successful contact (${AGE.source})`));
    expect(await overview.domainNames()).toEqual(onlineNames);
    for (const row of await overview.rowsText()) expect(row.data, row.domain).toMatch(AGE);
  });

  it('with the service stopped, every panel of a domain shows its kept data and its age', async () => {
    const { page } = await suite.window();
    const domain = new DomainPage(page);
    for (const tab of TABS) {
      await domain.open(suite.world.accountId, pay.domainId, pay.fqdn, tab);
      await domain.offlineBanner.waitFor();
      for (const title of PANELS[tab]) {
        const age = domain.panelAge(title);
        await age.waitFor();
        expect(await age.innerText(), `${tab} › ${title}`).toMatch(AGE);
        expect(await domain.panel(title).getByText('Loading…').count(), `${tab} › ${title}`).toBe(0);
      }
      if (tab === 'Summary') {
        expect(await domain.panel('Security score').innerText()).toContain(pay.score!.score.toFixed(1));
      }
      if (tab === 'Mail & senders') {
        const threat = domain.panel('Senders').getByRole('row').filter({ hasText: 'registered threat' });
        expect(await threat.count()).toBeGreaterThan(0);
        await expect.poll(() => domain.chartsDrawn(domain.panel('Mail volume'))).toBe(true);
      }
      if (tab === 'DNS') {
        expect(await domain.panel('Current records').innerText()).toContain(pay.health!.dmarcRecord!);
      }
    }
  });

  it('with the service stopped, the alerts inbox, audit log, settings and accounts still render', async () => {
    const { page } = await suite.window();
    const alerts = new AlertsPage(page);
    await alerts.open();
    await alerts.offlineBanner.waitFor();
    const [threat] = (await suite.world.app.run.app.listAlerts({ accountId: suite.world.accountId })).filter(
      (a) => a.rule === 'threat_source_appeared',
    );
    await alerts.row(pay.fqdn, threat!.title).waitFor();

    const audit = new AuditPage(page);
    await audit.open();
    await audit.offlineBanner.waitFor();
    const kept = audit.main.getByText(/^Kept copy from/);
    await kept.waitFor();
    expect(await kept.innerText()).toMatch(AGE);
    expect(await audit.main.locator('table tbody tr').first().innerText()).toBe(onlineAudit);

    const settings = new SettingsPage(page);
    await settings.open();
    await settings.offlineBanner.waitFor();

    const accounts = new AccountsPage(page);
    await accounts.gotoHash('#/accounts');
    await accounts.heading('Accounts').waitFor();
    await accounts.accountList.getByText(DEMO_LABEL).first().waitFor();
    await accounts.offlineBanner.waitFor();
  });
});
