/**
 * The domain views of issue 24: senders over time (one table, a trend per sender from the mirror's polls,
 * a drill-down to a sender's history), the TLS-RPT daily trend and failing MTAs, the BIMI logo preview and
 * certificate, the MTA-STS policy mode. Each screen is photographed in light and dark at 1280×800 and
 * checked with axe.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { aggregateXml, tlsReportJson } from '../integration/service/reportsSupport.ts';
import { badgeWords } from './pages/base-page.ts';
import { DomainPage, type DomainTab } from './pages/domain-page.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();

beforeAll(() => mkdirSync(SCREENSHOT_DIR, { recursive: true }));

async function openDomain(fqdn: string, tab: DomainTab) {
  const rows = await suite.world.app.run.app.overview({ accountId: suite.world.accountId });
  const r = rows.find((x) => x.fqdn === fqdn)!;
  const { page } = await suite.window(`#/domain/${r.accountId}/${r.domainId}`);
  const domain = new DomainPage(page);
  await domain.open(r.accountId, r.domainId, fqdn, tab);
  return { domain, r, page };
}

/** Light and dark screenshots of the screen as it is, and axe with no violation in either. */
async function photograph(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`) });
    const violations = await axeViolations(page);
    expect(violations, `${name} (${scheme})\n${describeViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** Uploads a DMARC aggregate report of yesterday with failing mail from `ip` (count messages). */
async function uploadFailing(fqdn: string, ip: string, count: number, reportId: string): Promise<void> {
  const res = await fetch(`${suite.world.service.origin}/_sandbox/reports/dmarc`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml', 'x-sandbox-key': 'e2e-sandbox-key' },
    body: aggregateXml({
      domain: fqdn,
      reportId,
      begin: `${yesterday()}T00:00:00Z`,
      records: [{ ip, count, disposition: 'reject' }],
    }),
  });
  expect(res.status, await res.text()).toBe(201);
}

describe('senders over time', () => {
  const FQDN = 'acme-pay.example';
  const IP = '198.51.100.77';

  it('after two polls with different volumes, the sender’s trend and its history show both', async () => {
    const { app, accountId } = suite.world;
    await uploadFailing(FQDN, IP, 40, 'e2e-trend-1');
    await app.run.app.syncNow({ accountId });
    await uploadFailing(FQDN, IP, 85, 'e2e-trend-2');
    await app.run.app.syncNow({ accountId });

    const { domain, r, page } = await openDomain(FQDN, 'Mail & senders');
    const senders = await app.run.app.domainSenders({ accountId, domainId: r.domainId });
    const sender = senders.find((s) => s.name === IP)!;
    expect(sender).toMatchObject({ failing: true, threat: false });
    expect(sender.trend.map((p) => p.total)).toEqual([40, 125]);
    // Registered threats lead the one table, then failing senders, then the rest.
    const order = senders.map((s) => (s.threat ? 0 : s.failing ? 1 : 2));
    expect(order).toEqual([...order].sort());

    const table = domain.panel('Senders');
    const row = table
      .locator('tbody tr:not(.detail-row)')
      .filter({ has: page.locator('td:first-child strong').getByText(IP, { exact: true }) });
    await row.waitFor();
    expect(await badgeWords(row.locator('td').nth(1).locator('.badge'))).toBe('failing');
    const trend = row.getByRole('img', { name: new RegExp(`^${IP.replace(/\./g, '\\.')} over 2 polls`) });
    expect(await trend.getAttribute('aria-label')).toMatch(/40 → 125 messages/);
    expect(await row.locator('td').nth(5).innerText()).toMatch(/40 → 125/);

    await row.getByRole('button', { name: `History of ${IP}` }).click();
    const history = table.getByRole('table', { name: `Polls of ${IP}, newest first` });
    await history.waitFor();
    const polls = history.locator('tbody tr');
    expect(await polls.count()).toBe(2);
    expect(await polls.nth(0).locator('td').nth(2).innerText()).toBe('125');
    expect(await polls.nth(1).locator('td').nth(2).innerText()).toBe('40');
    await table.scrollIntoViewIfNeeded();
    await photograph(page, 'domain-senders');
  });
});

describe('TLS-RPT', () => {
  const FQDN = 'acme-mail.example';
  const MTA = '203.0.113.9';

  it('a daily trend of successful and failed sessions, and the failing sending MTAs by IP', async () => {
    const day = yesterday();
    const res = await fetch(`${suite.world.service.origin}/_sandbox/reports/tls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-key': 'e2e-sandbox-key' },
      body: tlsReportJson({
        domain: FQDN,
        reportId: 'e2e-tls-trend',
        start: `${day}T00:00:00Z`,
        successful: 500,
        failed: 25,
        failures: [
          {
            'result-type': 'certificate-expired',
            'sending-mta-ip': MTA,
            'receiving-mx-hostname': `mx.${FQDN}`,
            'failed-session-count': 25,
          },
        ],
      }),
    });
    expect(res.status, await res.text()).toBe(201);

    const { domain, r, page } = await openDomain(FQDN, 'TLS-RPT');
    const trend = domain.panel('Sessions per day');
    await domain.panelAge('Sessions per day').waitFor();
    await expect.poll(() => domain.chartsDrawn(trend)).toBe(true);
    // What the service's reports say about that day, summed: the trend's row for the day says the same.
    const reports = (
      await suite.world.app.run.app.readPanel({
        panel: 'tls_rpt_reports',
        accountId: r.accountId,
        domainId: r.domainId,
        query: { start_date: day, end_date: day, limit: 100 },
      })
    ).data as {
      date_range_start: string;
      total_successful_session_count: number;
      total_failure_session_count: number;
    }[];
    const ofDay = reports.filter((x) => x.date_range_start.startsWith(day));
    const ok = ofDay.reduce((n, x) => n + x.total_successful_session_count, 0);
    const failed = ofDay.reduce((n, x) => n + x.total_failure_session_count, 0);
    expect(ok).toBeGreaterThanOrEqual(500);
    expect(failed).toBeGreaterThanOrEqual(25);
    // The table writes the day and the counts as people read them in the browser's locale (one date format,
    // thousands separators): the expected cells are formatted there the same way.
    const expected = await page.evaluate(
      ([d, a, b]) => {
        const n = new Intl.NumberFormat(undefined);
        const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
        return [when.format(Date.parse(`${d}T00:00:00Z`)), n.format(a), n.format(b)];
      },
      [day, ok, failed] as const,
    );
    const row = trend
      .getByRole('table', { name: 'TLS sessions per day' })
      .getByRole('row')
      .filter({ hasText: expected[0] });
    expect((await row.getByRole('cell').allInnerTexts()).map((t) => t.trim())).toEqual(expected);
    // Every day of the window is there, quiet days as zero.
    const days = await trend.getByRole('table', { name: 'TLS sessions per day' }).locator('tbody tr').count();
    expect(days).toBeGreaterThanOrEqual(29);
    expect(await trend.locator('p.summary').innerText()).toMatch(/successful and [\d,]+ failed sessions/);

    // The failing sending MTA is listed by IP, failing ones first.
    const mtas = domain.panel('By sending MTA').locator('tbody tr');
    const mta = mtas.filter({ hasText: MTA });
    await mta.waitFor();
    expect(await mta.locator('td').nth(1).innerText()).toMatch(/^[1-9][\d,]*$/);
    expect(await mtas.first().getAttribute('class')).toMatch(/failing/);
    await trend.scrollIntoViewIfNeeded();
    await photograph(page, 'domain-tls');
  });

  it('the MTA-STS policy mode is on the tab, in words', async () => {
    const { domain, r, page } = await openDomain('shop.acme.example', 'TLS-RPT');
    const policy = domain.panel('MTA-STS policy');
    await domain.panelAge('MTA-STS policy').waitFor();
    const served = (
      await suite.world.app.run.app.readPanel({
        panel: 'mta_sts',
        accountId: r.accountId,
        domainId: r.domainId,
      })
    ).data as { mode: string };
    expect(served.mode).toBe('testing');
    expect(await badgeWords(policy.locator('.badge').first())).toBe('testing');
    expect(await policy.innerText()).toMatch(/still delivered/);
    await photograph(page, 'domain-tls-mta-sts');
  });
});

describe('BIMI', () => {
  it('previews the logo as an image and names the certificate’s subject and expiry', async () => {
    const { domain, page } = await openDomain('acme.example', 'BIMI');
    const logo = domain.panel('Logo');
    const img = logo.getByRole('img', { name: 'BIMI logo of acme.example' });
    await img.waitFor();
    // An image from a data: URL, drawn — and never the SVG's markup in the page.
    expect(await img.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await logo.locator('svg').count()).toBe(0);
    await domain.panelAge('VMC certificate').waitFor();
    const text = await logo.innerText();
    expect(text).toMatch(/Certificate for\s+\S/);
    expect(text).toMatch(/(Expires|Expired)\s+(in |\d|yesterday|tomorrow)/);
    await photograph(page, 'domain-bimi');
  });
});
