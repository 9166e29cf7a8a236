/**
 * The DNS watch on screen (issue 22, item 4), in the real renderer against the reference service whose
 * sandbox zone is served over DNS on 127.0.0.1 and asked by the app's own watch: the domain's DNS tab shows
 * each record as DNS answers it now (value, TTL, last checked, resolver) beside the service's scan, and a
 * record the service calls connected while DNS answers it invalid as a disagreement in words; Settings → DNS
 * watch shows the pace and freshness and takes the cadence, rate cap and resolvers, refusing bad values on
 * their fields. Screenshots at 1280×800, light and dark.
 *
 * The zone's TTL is 5 s and a change is confirmed after 3 answers 1 s apart, so the file runs in seconds.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEFAULT_CONFIRM_RULES } from '../../main/core/dnswatch/confirmation.ts';
import { DomainPage } from './pages/domain-page.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const TTL = 5;
const suite = demoSuite({
  dns: { ttl: TTL, confirm: { ...DEFAULT_CONFIRM_RULES, confirmSpacingMs: 1_000 } },
});
const app = () => suite.world.app.run.app;
const FQDN = 'acme.example';

/**
 * Screenshots in light and dark, each (unless `axe` is false: axe costs seconds) with axe's WCAG 2 A/AA check
 * (contrast differs between them).
 */
async function shoot(page: Page, name: string, axe = true): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`) });
    if (!axe) continue;
    const violations = await axeViolations(page);
    expect(violations, `${name} (${scheme}):\n${describeViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the DNS tab', () => {
  it('shows each record as DNS answers it now beside the service’s scan, and a disagreement in words', async () => {
    const row = (await app().overview()).find((r) => r.fqdn === FQDN)!;
    const ref = { accountId: row.accountId, domainId: row.domainId };
    const dns = suite.world.service.dns!;
    const watched = await app().domainDnsWatch(ref);
    const dmarc = watched.records.find((r) => r.protocol === 'dmarc')!;
    expect(dmarc).toMatchObject({ answer: 'present', ttl: TTL, resolver: dns, serviceConnected: true });

    const { page } = await suite.window();
    const domain = new DomainPage(page);
    await domain.open(row.accountId, row.domainId, FQDN, 'DNS');
    const panel = page.getByRole('region', { name: "DNS now (Authwatch's own DNS watch)" });
    const dmarcRow = panel.getByRole('row').filter({ hasText: `_dmarc.${FQDN}` });
    await dmarcRow.waitFor();
    const cells = await dmarcRow.getByRole('cell').allInnerTexts();
    // DNS answers | Value | TTL | Checked | Resolver | Service's scan
    expect(cells[0]).toContain('present');
    expect(cells[1]).toBe(dmarc.value);
    expect(cells[2]).toBe(`${TTL} s`);
    expect(cells[3]).toMatch(/just now|seconds? ago|minute ago/);
    expect(cells[4]).toBe(dns);
    expect(cells[5]).toContain('connected');

    // The service scans moments apart here (two scans, two syncs: the scan period the page measures),
    // both times seeing the record good. Then DNS answers an invalid DMARC record: the watch confirms it,
    // the service's last scan still calls it connected, and once that has lasted longer than the service's
    // scan period the page says they disagree.
    for (let i = 0; i < 2; i++) {
      await suite.world.service.scan();
      await app().syncNow({ accountId: row.accountId });
    }
    await suite.world.service.setRecord(FQDN, 'dmarc', 'v=DMARC1; p=bogus; rua=mailto:d@acme.example');
    await expect
      .poll(async () => (await app().domainDnsWatch(ref)).disagreements, { timeout: 30_000, interval: 250 })
      .toEqual([expect.objectContaining({ protocol: 'dmarc', dns: 'invalid', service: 'connected' })]);
    const [disagreement] = (await app().domainDnsWatch(ref)).disagreements;

    await page.reload();
    const said = panel.getByRole('status').filter({ hasText: 'DNS and the service disagree' });
    await said.waitFor();
    // The time of day as the window's locale writes it.
    const since = await page.evaluate(
      (iso) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }),
      disagreement!.since,
    );
    expect(await said.innerText()).toContain(
      `DNS shows an invalid DMARC record (${disagreement!.reason}); the service reports it connected since ${since}.`,
    );
    const invalidCells = await dmarcRow.getByRole('cell').allInnerTexts();
    expect(invalidCells[0]).toContain('invalid');
    expect(invalidCells[0]).toContain(disagreement!.reason!);
    expect(invalidCells[5]).toContain('connected');
    await shoot(page, 'domain-dns-watch');
  });
});

describe('Settings → DNS watch', () => {
  it('shows the pace and last check, refuses bad values on their fields, and saves good ones', async () => {
    const before = await app().dnsWatchStatus();
    const { page } = await suite.window('#/settings');
    const section = page.locator('form[aria-labelledby="dns-watch-title"]');
    await section.waitFor();
    const now = section.getByRole('status', { name: 'The DNS watch now' });
    await expect.poll(() => now.innerText()).toMatch(/queries a second now \(at most 100 to each resolver\)/);
    const nowText = await now.innerText();
    expect(nowText).toMatch(/Last check (just now|\d+ seconds? ago)/);
    expect(nowText).toContain(
      `resolvers: ${suite.world.service.dns} (given on the command line for this run)`,
    );

    const resolvers = section.getByLabel('Resolvers to ask');
    const floor = section.getByLabel('Ask a record again after at least (s)');
    const ceiling = section.getByLabel('…and at most (s)');
    const rate = section.getByLabel('Queries a second to each resolver, at most');
    await resolvers.fill('dns.example.com');
    await floor.fill('60');
    await ceiling.fill('30');
    await rate.fill('0');
    await section.getByRole('button', { name: 'Save DNS watch' }).click();
    await section.getByText('Correct the marked fields; nothing was saved.').waitFor();
    // Each error is the field's own: marked invalid and read with it.
    for (const [input, message] of [
      [resolvers, /dns\.example\.com is not an IP address/],
      [ceiling, /The longest wait must not be shorter than the shortest/],
      [rate, /The query rate must be between 1 and 10,000/],
    ] as const) {
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await input.getAttribute('aria-describedby'))!.split(' ');
      const texts = await Promise.all(describedBy.map((id) => page.locator(`#${id}`).innerText()));
      expect(texts.join(' ')).toMatch(message);
    }
    await shoot(page, 'settings-dns-watch-errors');
    expect((await app().dnsWatchStatus()).settings).toEqual(before.settings);

    await resolvers.fill('127.0.0.1:5399\n[::1]:5399');
    await floor.fill('30');
    await ceiling.fill('900');
    await rate.fill('50');
    await section.getByRole('button', { name: 'Save DNS watch' }).click();
    await section.getByText(/Saved at/).waitFor();
    expect((await app().dnsWatchStatus()).settings).toEqual({
      enabled: true,
      servers: ['127.0.0.1:5399', '[::1]:5399'],
      floorSeconds: 30,
      ceilingSeconds: 900,
      ratePerSecond: 50,
    });
    // The run's own resolvers (the command line's) still win for this run, and the page says so.
    await expect.poll(() => now.innerText()).toContain('(at most 50 to each resolver)');
    expect(await now.innerText()).toContain('(given on the command line for this run)');
    // The watch rebuilt with the new settings still counts the records it watches.
    expect(await now.innerText()).toMatch(/, [1-9][\d,]* records/);
    await section.scrollIntoViewIfNeeded();
    // (The saved form is the errors' form without them: axe checked that one.)
    await shoot(page, 'settings-dns-watch', false);
  });
});
