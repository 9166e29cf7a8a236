/**
 * A domain page with every panel, against what the first sync mirrored: health and protocols, the score
 * with its history chart, mail volume (totals of the window, both series), sending services, failed
 * sources with the registered threat's badge (acme-pay.example), the DNS records, timeline and history,
 * TLS-RPT (acme-mail.example, the demo's domain with reports), BIMI readiness and the VMC
 * (acme-brand.example), the dashboard cache, and the date window that changes and is remembered.
 */
import { describe, expect, it } from 'vitest';
import type { OverviewRow } from '../../shared/bridge/results.ts';
import { badgeWords } from './pages/base-page.ts';
import { DomainPage } from './pages/domain-page.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();
const DAY = 86_400_000;
const PROTOCOL_NAMES: Record<string, string> = {
  dmarc: 'DMARC',
  spf: 'SPF',
  mta_sts: 'MTA-STS',
  tls_rpt: 'TLS-RPT',
  bimi: 'BIMI',
};
const thousands = (n: number) => n.toLocaleString('en-GB');
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function row(fqdn: string): Promise<OverviewRow> {
  const found = (await suite.world.app.run.app.overview()).find((r) => r.fqdn === fqdn);
  if (!found) throw new Error(`${fqdn} is not in the mirror`);
  return found;
}

/** Messages the mirror holds for the window a preset of `days` means (start `days` before today). */
async function mirroredMessages(r: OverviewRow, days: number): Promise<number> {
  const now = Date.now();
  const points = await suite.world.app.run.app.history({
    kind: 'mail_volume',
    accountId: r.accountId,
    domainId: r.domainId,
    since: `${isoDay(now - days * DAY)}T00:00:00Z`,
    until: `${isoDay(now)}T23:59:59Z`,
  });
  return points.reduce((sum, p) => sum + (p.total ?? 0), 0);
}

async function openDomain(fqdn: string, tab: Parameters<DomainPage['open']>[3] = 'Summary') {
  const r = await row(fqdn);
  const { page } = await suite.window(`#/domain/${r.accountId}/${r.domainId}`);
  const domain = new DomainPage(page);
  await domain.open(r.accountId, r.domainId, fqdn, tab);
  return { domain, r, page };
}

describe('the domain page', () => {
  it('summary: health and protocols as scanned, the score with its drawn history, the dashboard cache', async () => {
    const { domain, r } = await openDomain('acme-pay.example');
    const health = domain.panel('Health and protocols');
    await health.waitFor();
    for (const [key, passing] of Object.entries(r.health!.protocols)) {
      const line = health.getByRole('row').filter({ hasText: new RegExp(`^\\s*${PROTOCOL_NAMES[key]}\\b`) });
      // The status model's words (a scan's pass flag is "passing"; an optional protocol without one is
      // "not set up", a required one failing), with the source of the fact beside them.
      const s = r.posture.protocols[key as keyof typeof r.posture.protocols];
      if (passing) expect(s.state, key).toBe('passing');
      expect(await line.innerText(), key).toContain(s.words);
      expect(await line.innerText(), key).toContain(s.evidence!.label);
    }
    expect(await health.innerText()).toContain(r.health!.dmarcRecord!);

    const score = domain.panel('Security score');
    expect(await score.innerText()).toContain(r.score!.score.toFixed(1));
    await expect.poll(() => domain.chartsDrawn(score)).toBe(true);
    // The chart is described in words for screen readers.
    expect(await score.getByRole('img').getAttribute('aria-label')).toMatch(/score/i);

    const cache = domain.panel('Mail summary');
    await domain.panelAge('Mail summary').waitFor();
    expect(await cache.innerText()).toMatch(/Messages\s+[\d,]+/);

    // Signals defined with extraSignal() list themselves under "Other checks": the MTA-STS mode the sync
    // read (the definition's label and words), as the mirror holds it.
    const detail = await suite.world.app.run.app.domainDetail({
      accountId: r.accountId,
      domainId: r.domainId,
    });
    const mtaSts = detail!.extraSignals.find((x) => x.signal === 'mta_sts');
    expect(mtaSts, 'the first sync read MTA-STS').toBeDefined();
    const others = domain.panel('Other checks');
    expect(await others.innerText()).toContain(`MTA-STS policy\n${mtaSts!.text}`);
    // BIMI readiness came as one definition file (main/core/signals/defs/bimiReadiness.ts) and no screen code:
    // it is listed the same way, in the words its definition gives.
    const bimi = detail!.extraSignals.find((x) => x.signal === 'bimi_readiness');
    expect(bimi, 'the first sync read BIMI readiness').toBeDefined();
    expect(bimi!.text).toMatch(/^(ready|not ready \(\d+\/100\))/);
    expect(await others.innerText()).toContain(`BIMI readiness\n${bimi!.text}`);
  });

  it('mail & senders: the window’s totals, both chart series, senders and the threat badge', async () => {
    const { domain, r, page } = await openDomain('acme-pay.example', 'Mail & senders');
    const expected = await mirroredMessages(r, 30);
    expect(expected).toBeGreaterThan(0);
    await expect.poll(() => domain.figure('Mail volume', 'Messages')).toBe(thousands(expected));
    const volume = domain.panel('Mail volume');
    await expect.poll(() => domain.chartsDrawn(volume)).toBe(true);
    const series = volume.getByRole('group', { name: 'Series' });
    await series.getByRole('button', { name: 'Dispositions' }).click();
    expect(await series.getByRole('button', { name: 'Dispositions' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await expect.poll(() => domain.chartsDrawn(volume)).toBe(true);

    const detail = await suite.world.app.run.app.domainDetail({
      accountId: r.accountId,
      domainId: r.domainId,
    });
    // One table of every sender: each sending service and each failed source once.
    const senders = domain.panel('Senders').locator('tbody tr:not(.detail-row)');
    const named = (name: string) =>
      senders.filter({ has: page.locator('td:first-child strong').getByText(name, { exact: true }) });
    const services = detail!.sendingServices!.sources.map((s) => String(s.source_name));
    const failing = detail!.failedSources!.sources.map((s) => String(s.source_name));
    expect(await senders.count()).toBe(new Set([...services, ...failing]).size);
    for (const name of services) expect(await named(name).count(), name).toBe(1);

    // The registered threat the alert names is badged as one among the failed sources.
    const [alert] = (await suite.world.app.run.app.listAlerts({ accountId: r.accountId })).filter(
      (a) => a.rule === 'threat_source_appeared' && a.fqdn === r.fqdn,
    );
    const source = /: (\S+)$/.exec(alert!.title)![1]!;
    const threat = named(source);
    expect(await badgeWords(threat.locator('td').nth(1).locator('.badge'))).toBe('registered threat');
    // Registered threats come first.
    expect(await badgeWords(senders.first().locator('td').nth(1).locator('.badge'))).toBe(
      'registered threat',
    );
    const others = senders.filter({ hasNotText: source });
    for (const other of await others.all())
      expect(await badgeWords(other.locator('td').nth(1).locator('.badge'))).not.toBe('registered threat');
  });

  it('the date window changes the figures and is remembered on the next visit', async () => {
    const { domain, r, page } = await openDomain('acme-pay.example', 'Mail & senders');
    const week = await mirroredMessages(r, 7);
    const month = await mirroredMessages(r, 30);
    expect(week).toBeLessThan(month);
    await expect.poll(() => domain.figure('Mail volume', 'Messages')).toBe(thousands(month));
    await domain.pickWindow(7);
    await expect.poll(() => domain.figure('Mail volume', 'Messages')).toBe(thousands(week));

    // The sidebar says where the user is: the domain, under the portfolio it belongs to.
    await expect.poll(() => domain.sidebarCurrent()).toBe(r.fqdn);
    expect(await domain.sidebarSection()).toEqual(['Overview']);
    await domain.navigate('Overview');
    await expect.poll(() => domain.sidebarCurrent()).toBe('Overview');
    expect(await domain.sidebarSection()).toEqual([]);
    await page.goBack();
    await domain.heading(r.fqdn).waitFor();
    const seven = domain.windowPicker.getByRole('button', { name: '7 d', exact: true });
    expect(await seven.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => domain.figure('Mail volume', 'Messages')).toBe(thousands(week));
  });

  it('DNS: current records as scanned, the per-protocol timeline and the record history', async () => {
    const { domain, r } = await openDomain('acme-mail.example', 'DNS');
    const current = domain.panel('Current records');
    await current.waitFor();
    for (const [key, passing] of Object.entries(r.health!.protocols)) {
      const line = current.getByRole('row').filter({ hasText: new RegExp(`^\\s*${PROTOCOL_NAMES[key]}\\b`) });
      expect(await line.innerText(), key).toMatch(passing ? /\bconnected/ : /disconnected/);
    }
    expect(await current.innerText()).toContain(r.health!.dmarcRecord!);
    const summary = domain.panel('Connection timeline').getByRole('list', { name: 'Per-protocol summary' });
    expect(await summary.getByRole('listitem').count()).toBe(5);
    await domain.panelAge('Record history').waitFor();
  });

  it('TLS-RPT: sessions, failures by result and by MTA, details and reports', async () => {
    const { domain } = await openDomain('acme-mail.example', 'TLS-RPT');
    await domain.panelAge('TLS reporting').waitFor();
    const sessions = await domain.figure('TLS reporting', 'Sessions');
    expect(Number(sessions.replace(/,/g, ''))).toBeGreaterThan(0);
    for (const title of ['Failures by result type', 'By sending MTA', 'Failure details', 'Recent reports']) {
      await domain.panelAge(title).waitFor();
      expect(await domain.panel(title).locator('tbody tr').count(), title).toBeGreaterThan(0);
    }
  });

  it('BIMI: the readiness checklist with what to fix next, and the VMC status', async () => {
    const { domain } = await openDomain('acme-brand.example', 'BIMI');
    const readiness = domain.panel('BIMI readiness');
    await domain.panelAge('BIMI readiness').waitFor();
    const text = await readiness.innerText();
    expect(text).toMatch(/\d+\s*\/ 100/);
    expect(text).toMatch(/Fix next:/);
    expect(text).toContain('DMARC at enforcement');
    expect(text).toContain('VMC valid and covering the domain');
    await domain.panelAge('VMC certificate').waitFor();
    expect(await domain.panel('VMC certificate').innerText()).toMatch(/certificate|valid|expired/i);
  });
});
