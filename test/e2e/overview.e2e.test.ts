/**
 * The portfolio overview against the demo: every domain the first sync mirrored is listed (parked ones
 * behind their toggle), sorting, searching and filtering change what the table shows the way a user
 * expects, and a domain opens from its link. Expectations come from the mirror (app.overview()), never
 * from the renderer's own model.
 */
import { describe, expect, it } from 'vitest';
import type { OverviewRow } from '../../shared/bridge/results.ts';
import { OverviewPage } from './pages/overview-page.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite();

const parked = (r: OverviewRow) => r.status === 'parked' || /parked/i.test(r.group?.name ?? '');
// The window's locale (en-GB) orders names as the table does, whatever the machine's LANG.
const byName = new Intl.Collator('en-GB').compare;

async function mirrorRows(): Promise<OverviewRow[]> {
  return suite.world.app.run.app.overview();
}

describe('the portfolio overview', () => {
  it('lists every mirrored domain, parked ones only behind "Show parked"', async () => {
    const rows = await mirrorRows();
    expect(rows).toHaveLength(14); // the demo portfolio, all mirrored by the first sync
    const hidden = rows.filter(parked).map((r) => r.fqdn);
    expect(hidden.length).toBeGreaterThan(0);
    const visible = rows.filter((r) => !parked(r)).map((r) => r.fqdn);

    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    expect(await overview.domainNames()).toEqual([...visible].sort(byName));
    await expect
      .poll(() => overview.summary.innerText())
      .toBe(`${visible.length} domains · ${hidden.length} parked hidden`);
    expect(await overview.shown()).toBe(visible.length);

    await overview.showParked.check();
    await expect.poll(() => overview.domainNames()).toEqual(rows.map((r) => r.fqdn).sort(byName));
    for (const fqdn of hidden) await expect.poll(() => overview.row(fqdn).count()).toBe(1);
  });

  it('shows each domain’s score, DMARC policy and data age as the mirror holds them', async () => {
    const rows = (await mirrorRows()).filter((r) => !parked(r));
    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    const shown = await overview.rowsText();
    for (const row of rows) {
      const text = shown.find((s) => s.domain === row.fqdn);
      expect(text, row.fqdn).toBeDefined();
      expect(text!.score, row.fqdn).toBe(row.score ? row.score.score.toFixed(1) : '—');
      const p = /\bp=(reject|quarantine|none)\b/.exec(row.health?.dmarcRecord ?? '')?.[1] ?? 'missing';
      expect(text!.dmarc, row.fqdn).toContain(p);
      expect(text!.data, row.fqdn).toMatch(/just now|min ago|s ago/);
    }
    // The headline's average is the mean of the listed domains' scores.
    const scored = rows.filter((r) => r.score);
    const mean = scored.reduce((s, r) => s + r.score!.score, 0) / scored.length;
    await expect.poll(() => overview.headlines.innerText()).toContain(mean.toFixed(1));
  });

  it('sorts on a column header click, and the other way on a second click', async () => {
    const rows = (await mirrorRows()).filter((r) => !parked(r));
    const scoreOf = new Map(rows.map((r) => [r.fqdn, r.score?.score ?? -1]));
    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    expect(await overview.sortState('Domain')).toBe('ascending');

    await overview.sortBy('Score');
    await expect.poll(() => overview.sortState('Score')).toBe('descending');
    expect(await overview.sortState('Domain')).toBe('none');
    const down = (await overview.domainNames()).map((n) => scoreOf.get(n)!);
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect(new Set(down).size).toBeGreaterThan(1); // the demo's scores differ: the order means something

    await overview.sortBy('Score');
    await expect.poll(() => overview.sortState('Score')).toBe('ascending');
    const up = (await overview.domainNames()).map((n) => scoreOf.get(n)!);
    expect(up).toEqual([...up].sort((a, b) => a - b));

    await overview.sortBy('Domain');
    await expect.poll(() => overview.sortState('Domain')).toBe('ascending');
    const names = await overview.domainNames();
    expect(names).toEqual([...names].sort(byName));
  });

  it('narrows the list as the user types a search, by name or by domain group', async () => {
    const rows = (await mirrorRows()).filter((r) => !parked(r));
    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();

    // "/" focuses the search box from anywhere, as in most dashboards.
    await page.locator('body').press('/');
    await expect.poll(() => overview.search.evaluate((el) => el === document.activeElement)).toBe(true);

    await overview.searchFor('pay');
    const pay = rows.filter((r) => r.fqdn.includes('pay')).map((r) => r.fqdn);
    expect(pay.length).toBeGreaterThan(0);
    await expect.poll(() => overview.domainNames()).toEqual(pay.sort(byName));
    expect(await overview.shown()).toBe(pay.length);

    const group = rows.find((r) => r.group)!.group!.name;
    await overview.searchFor(group.toLowerCase());
    const inGroup = rows.filter((r) => r.group?.name === group || r.fqdn.includes(group.toLowerCase()));
    await expect.poll(() => overview.domainNames()).toEqual(inGroup.map((r) => r.fqdn).sort(byName));

    await overview.searchFor('no-such-domain-anywhere');
    await overview.main.getByText('No domain matches these filters').waitFor();
    await overview.main.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => overview.domainNames()).toHaveLength(rows.length);
  });

  it('filters on the DMARC policy and on a failing protocol', async () => {
    const rows = (await mirrorRows()).filter((r) => !parked(r));
    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();

    await overview.dmarcFilter.selectOption({ label: 'p=reject' });
    const reject = rows.filter((r) => /\bp=reject\b/.test(r.health?.dmarcRecord ?? '')).map((r) => r.fqdn);
    expect(reject.length).toBeGreaterThan(0);
    expect(reject.length).toBeLessThan(rows.length);
    await expect.poll(() => overview.domainNames()).toEqual(reject.sort(byName));
    for (const row of await overview.rowsText()) expect(row.dmarc).toMatch(/^✓ ?reject/);

    await overview.dmarcFilter.selectOption({ label: 'Any DMARC policy' });
    await overview.failingFilter.selectOption({ label: 'SPF failing' });
    const noSpf = rows.filter((r) => r.health?.protocols.spf === false).map((r) => r.fqdn);
    expect(noSpf.length).toBeGreaterThan(0);
    await expect.poll(() => overview.domainNames()).toEqual(noSpf.sort(byName));
    for (const fqdn of noSpf) {
      const chip = overview.row(fqdn).getByRole('listitem').filter({ hasText: 'SPF' });
      expect(await chip.textContent()).toMatch(/✕\s*SPF\s*failing/);
    }
  });

  it('opens a domain’s page from its link', async () => {
    const { page } = await suite.window();
    const overview = new OverviewPage(page);
    await overview.waitForRows();
    const [first] = await overview.domainNames();
    await overview.openDomain(first!);
    await overview.heading(first!).waitFor();
    expect(page.url()).toMatch(/#\/domain\/\d+\/\d+$/);
  });
});
