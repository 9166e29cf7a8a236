/**
 * "Expiring soon" on the portfolio (issue 34), in the real renderer against the reference world: the MTA-STS
 * certificate of acme.example made (by its test CA) to expire in 9 days, a second account (a team of its own)
 * whose API token expires in 12 days, the test blocklist zone chosen; one round of the live checks. The card lists both,
 * soonest first, with days left in words; its certificate entry opens the domain's Checks tab, which shows the
 * certificate, the SPF lookup tree and the blocklist answers; Settings → Live checks shows the zone chosen
 * and refuses one that is not a zone. Screenshots at 1280×800, light and dark (AUTHWATCH_SHOTS_DIR, else
 * test-results/screenshots).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_V1_SCOPE_IDS } from '../../service/auth/scopes.ts';
import { shootAccessible } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';

const suite = demoSuite({ dns: { ttl: 5, live: true } });
const app = () => suite.world.app.run.app;
const SHOTS = process.env.AUTHWATCH_SHOTS_DIR ?? SCREENSHOT_DIR;

describe('the Expiring soon card', () => {
  beforeAll(async () => {
    const { service } = suite.world;
    service.tls!.world.tlsWorld.setPlan('mta-sts.acme.example', { expiresInDays: 9 });
    // Client B: a team of its own (no domains), whose token expires in 12 days.
    const team = (await service.sandbox('POST', '/accounts', { name: 'Client B', plan: 'suite' })) as {
      data: { owner_user_id: number };
    };
    const issued = (await service.sandbox('POST', '/tokens', {
      user_id: team.data.owner_user_id,
      scopes: [...ALL_V1_SCOPE_IDS],
      name: 'Client B desk',
      expires_in_days: 12,
    })) as { data: { plain_text: string } };
    await app().addAccount({ label: 'Client B', baseUrl: service.baseUrl, token: issued.data.plain_text });
    await service.sandbox('PUT', '/dnsbl/127.0.0.1', { listed: true, reason: 'Seen at 40 spam traps' });
    // The default 30 connections a minute would make this round wait a minute; on the loopback world a step
    // answers at once or never, so 3 s stands for the default 10.
    await app().updateLiveChecks({
      connectionsPerMinute: 1000,
      timeoutMs: 3000,
      kinds: { dnsbl: { enabled: true, zones: ['bl.authwatch.test'] } },
    });
    expect(await app().checkLiveOnce()).not.toBeNull();
  });

  it('lists what expires within 30 days, soonest first, with what happens on the date', async () => {
    const { page } = await suite.window('#/');
    const card = page.getByRole('region', { name: 'Expiring soon' });
    await card.getByRole('listitem').first().waitFor();
    const items = await card.getByRole('listitem').allInnerTexts();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/expires in [89] days\s+MTA-STS certificate of mta-sts\.acme\.example/);
    expect(items[0]).toMatch(/senders can no longer fetch the MTA-STS policy of acme\.example/);
    expect(items[1]).toMatch(/expires in 1[12] days\s+API token “Client B desk” of Client B/);
    await card.scrollIntoViewIfNeeded();
    await shootAccessible(page, SHOTS, 'expiring-soon-overview');
  });

  it('opens the domain’s Checks from a certificate: the chain, the SPF tree, the blocklist answers', async () => {
    const { page } = await suite.window('#/');
    const card = page.getByRole('region', { name: 'Expiring soon' });
    await card.getByRole('link', { name: /^MTA-STS certificate of mta-sts\.acme\.example/ }).click();
    await page.waitForURL(/#\/domain\/\d+\/\d+\/checks$/);
    const sts = page.locator('[data-check="mta_sts_live"]');
    await sts.waitFor();
    expect(await sts.getAttribute('data-status')).toBe('problem');
    expect(await page.getByRole('region', { name: 'MTA-STS policy (HTTPS)' }).innerText()).toMatch(
      /Certificate chain[\s\S]*Authwatch reference world test CA/,
    );
    await shootAccessible(page, SHOTS, 'checks-tab-top');
    // The checks of no domain (API tokens, delivery channels) are one link away.
    await expect
      .poll(() => page.getByRole('link', { name: 'Settings → App checks' }).getAttribute('href'))
      .toBe('#/settings');
    const blocklist = page.getByRole('region', { name: 'Blocklists' });
    expect(await blocklist.locator('tr[data-answer="listed"]').first().innerText()).toMatch(
      /127\.0\.0\.1[\s\S]*bl\.authwatch\.test[\s\S]*listed[\s\S]*Seen at 40 spam traps/,
    );
    const tree = page.getByRole('tree', { name: 'SPF lookup tree' });
    expect(await tree.innerText()).toMatch(/lookup/);
    await page.getByRole('region', { name: 'SPF lookups' }).scrollIntoViewIfNeeded();
    await shootAccessible(page, SHOTS, 'checks-tab-spf-blocklists');
  });

  it('shows each account’s API token and the delivery channels under Settings → App checks', async () => {
    const { page } = await suite.window('#/settings');
    const section = page.getByRole('region', { name: 'App checks' });
    const token = section.locator('[data-app-check="token_expiry"]').filter({ hasText: 'Client B' });
    await token.waitFor();
    expect(await token.getAttribute('data-status')).toBe('problem');
    const words = (t: string) => t.replace(/\s+/g, ' ').trim();
    expect(words(await token.innerText())).toMatch(
      /^API token · Client B .{0,3}problem the API token expires in 1[12] days \(\d{4}-\d\d-\d\d\) Checked (just now|\d+ minutes? ago) · next look in (\d+ minutes|1 hour)$/,
    );
    // One token row per account, and one for the app's delivery channels (every account's alerts use them).
    expect(await section.locator('[data-app-check="token_expiry"]').count()).toBe(2);
    const channels = section.locator('[data-app-check="channel_failing"]');
    expect(words(await channels.innerText())).toMatch(
      /^Delivery channels · this app .*every channel delivers Checked .* · next look (within a minute|due now)$/,
    );
    await section.scrollIntoViewIfNeeded();
    await shootAccessible(page, SHOTS, 'settings-app-checks');
  });

  it('leads from a token to Accounts, where it is replaced', async () => {
    const { page } = await suite.window('#/');
    const card = page.getByRole('region', { name: 'Expiring soon' });
    await card.getByRole('link', { name: /^API token/ }).click();
    await page.waitForURL(/#\/accounts$/);
  });
});

describe('Settings → Live checks', () => {
  it('shows the blocklist zones with their terms and refuses one that is not a zone', async () => {
    const { page } = await suite.window('#/settings');
    const section = page.getByRole('form', { name: 'Live checks' });
    await section.waitFor();
    const zones = section.getByRole('group', { name: 'Blocklist zones (DNSBL)' });
    expect(await zones.innerText()).toMatch(/Spamhaus ZEN[\s\S]*public resolvers/);
    expect(await zones.getByLabel('Other zones').inputValue()).toBe('bl.authwatch.test');
    await zones.scrollIntoViewIfNeeded();
    await shootAccessible(page, SHOTS, 'settings-live-checks');
    await zones.getByLabel('Other zones').fill('bl.authwatch.test\nhttp://bl.example.net');
    await section.getByRole('button', { name: 'Save live checks' }).click();
    await expect.poll(() => zones.innerText()).toMatch(/“http:\/\/bl\.example\.net” is not a zone name/);
    expect((await app().liveChecksStatus()).settings.kinds.dnsbl?.zones).toEqual(['bl.authwatch.test']);
  });
});
