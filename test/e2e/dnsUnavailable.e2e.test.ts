/**
 * A resolver that answers NXDOMAIN for every name (a captive portal, a split-horizon resolver, a machine
 * without internet — this one's), in the real renderer against the demo service: the app's DNS watch asks
 * only it. Its answers are no evidence — the portfolio keeps what the service says (no "DMARC missing" on
 * every domain), no alert comes from it — and the window says so once, in words with what to do, on the sync
 * line and on a domain's DNS tab. Screenshots at 1280×800, light and dark.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEFAULT_CONFIRM_RULES } from '../../main/core/dnswatch/confirmation.ts';
import { nxdomainForEverything, startForgingDnsServer } from '../support/forgingDnsServer.ts';
import { DomainPage } from './pages/domain-page.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

/** NXDOMAIN for every question, the DNS root's too. */
const liar = await startForgingDnsServer(nxdomainForEverything);
liar.forgeries = [];
afterAll(() => liar.close());

const suite = demoSuite({
  dns: {
    ttl: 5,
    confirm: { ...DEFAULT_CONFIRM_RULES, confirmSpacingMs: 1_000 },
    servers: [`127.0.0.1:${liar.port}`],
  },
});
const app = () => suite.world.app.run.app;
const FQDN = 'acme.example';
const TO_DO = 'pick a resolver in Settings → DNS watch';

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`) });
    const violations = await axeViolations(page);
    expect(violations, `${name} (${scheme}):\n${describeViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('a resolver that lies about every name', () => {
  it('gives no evidence: no status from it, no alert from it, every answer unknown', async () => {
    expect(liar.answered).toBeGreaterThan(0);
    const rows = await app().overview();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      for (const p of Object.values(row.posture.protocols)) expect(p.evidence?.source).not.toBe('dns_watch');
      const watched = await app().domainDnsWatch({ accountId: row.accountId, domainId: row.domainId });
      for (const r of watched.records) expect(r).toMatchObject({ answer: 'unknown', state: null });
      expect(watched.disagreements).toEqual([]);
    }
    const fromWatch = (await app().listAlerts({})).filter(
      (a) => a.details.source === 'dns_watch' || a.rule === 'domain_stopped_resolving',
    );
    expect(fromWatch).toEqual([]);
    expect((await app().syncStatus()).dnsUnavailable).toMatchObject({
      reason: `127.0.0.1:${liar.port} answers that the DNS root itself does not exist (NXDOMAIN)`,
    });
  });

  it('is said once on the sync line and once on the DNS tab, with what to do', async () => {
    const { page } = await suite.window();
    const line = page.locator('[data-sync="dns-unavailable"]');
    await line.waitFor();
    expect(await line.innerText()).toContain(
      `DNS unavailable: 127.0.0.1:${liar.port} answers that the DNS root itself does not exist (NXDOMAIN).`,
    );
    expect(await line.innerText()).toContain(TO_DO);
    expect((await page.locator('body').innerText()).split(TO_DO).length - 1).toBe(1);
    await shoot(page, 'sync-line-dns-unavailable');

    const row = (await app().overview()).find((r) => r.fqdn === FQDN)!;
    const domain = new DomainPage(page);
    await domain.open(row.accountId, row.domainId, FQDN, 'DNS');
    const panel = page.getByRole('region', { name: "DNS now (Authwatch's own DNS watch)" });
    const said = panel.getByRole('status').filter({ hasText: 'DNS unavailable' });
    await said.waitFor();
    expect(await said.innerText()).toContain(TO_DO);
    expect((await panel.innerText()).split(TO_DO).length - 1).toBe(1);
    const dmarcRow = panel.getByRole('row').filter({ hasText: `_dmarc.${FQDN}` });
    expect((await dmarcRow.getByRole('cell').allInnerTexts())[0]).toContain('unknown');
    await shoot(page, 'domain-dns-unavailable');
  });
});
