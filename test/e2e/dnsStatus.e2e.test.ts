/**
 * The DNS watch as status evidence (issue 20, "newest evidence wins"): the reference service serves its
 * sandbox zone over DNS on 127.0.0.1 and the app's DNS watch asks only it. When the sandbox removes a
 * domain's SPF record, the watch's confirmed answer is newer than the last health scan: the header, the
 * portfolio row, the tray and the alert change together, and the header says the fact came from DNS.
 *
 * The zone's TTL is 5 s and the watch confirms a change after 3 answers 1 s apart, so the file runs in
 * seconds; AUTHWATCH_E2E_DNS_DEFAULT_PACE=1 runs it at the app's defaults (60 s TTL and floor, 3 answers
 * 15 s apart) to measure what a user sees — the time goes to test-results/e2e/dns-status-timing.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIRM_RULES } from '../../main/core/dnswatch/confirmation.ts';
import { DomainPage } from './pages/domain-page.ts';
import { OverviewPage } from './pages/overview-page.ts';
import { E2E_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { overviewRow, trayOf } from './support/worldReads.ts';

const DEFAULT_PACE = process.env.AUTHWATCH_E2E_DNS_DEFAULT_PACE === '1';
const TTL = DEFAULT_PACE ? 60 : 5;
const suite = demoSuite({
  dns: {
    ttl: TTL,
    confirm: DEFAULT_PACE ? DEFAULT_CONFIRM_RULES : { ...DEFAULT_CONFIRM_RULES, confirmSpacingMs: 1_000 },
  },
});

const app = () => suite.world.app.run.app;
const row = (fqdn: string) => overviewRow(suite.world, fqdn);
const tray = () => trayOf(suite.world);

const FQDN = 'acme.example';

describe('DNS watch answers are status evidence', () => {
  it(
    'the sandbox removes SPF: header, row, tray and alert agree, from DNS, before the next scan; restored the same way (time measured)',
    { timeout: DEFAULT_PACE ? 300_000 : 60_000 },
    async () => {
      const before = await row(FQDN);
      expect(before.posture.protocols.spf.state).toBe('passing');
      expect(before.posture.verdict.level).not.toBe('problem');
      const dns = suite.world.service.dns!;
      expect(dns).toMatch(/^127\.0\.0\.1:\d+$/);

      const { page } = await suite.window();
      const domain = new DomainPage(page);
      await domain.open(before.accountId, before.domainId, FQDN);
      expect(await domain.headerChip('SPF').getAttribute('data-state')).toBe('passing');
      const other = await suite.open();
      // The browser host notifies through the page's Notification API: record what it shows.
      await other.context.addInitScript(() => {
        const shown: { title: string; body: string }[] = [];
        (window as unknown as { notified: typeof shown }).notified = shown;
        class Recorder {
          static permission = 'granted';
          onclick: (() => void) | null = null;
          constructor(title: string, options: { body?: string } = {}) {
            shown.push({ title, body: options.body ?? '' });
          }
        }
        (window as unknown as { Notification: unknown }).Notification = Recorder;
      });
      const overview = new OverviewPage(other.page);
      await other.reset('#/');
      await overview.waitForRows();
      const rowChip = overview.row(FQDN).getByRole('listitem').filter({ hasText: 'SPF' }).first();
      expect(await rowChip.getAttribute('data-state')).toBe('passing');

      // Watch the mirror for the alert while the header is watched in the window.
      const changedAt = Date.now();
      let alertAt: number | null = null;
      const alertWatch = setInterval(() => {
        void app()
          .listAlerts({ open: true })
          .then((open) => {
            if (alertAt === null && open.some((a) => a.rule === 'protocol_disconnected' && a.fqdn === FQDN))
              alertAt = Date.now();
          });
      }, 50);
      try {
        await suite.world.service.setRecord(FQDN, 'spf', null);
        await expect
          .poll(() => domain.verdict(), { timeout: DEFAULT_PACE ? 240_000 : 40_000, interval: 100 })
          .toBe('SPF disconnected');
      } finally {
        clearInterval(alertWatch);
      }
      const headerAt = Date.now();
      const chip = domain.headerChip('SPF');
      expect(await chip.getAttribute('data-state')).toBe('failing');
      // Where the fact came from, on hover: the app's own DNS query of the service's zone, not the scan.
      expect(await chip.getAttribute('title')).toContain(`From DNS via ${dns}, `);

      // The row in the other window, the alert and the tray say the same.
      await expect
        .poll(() => rowChip.getAttribute('data-state'), { timeout: 3_000, interval: 100 })
        .toBe('failing');
      const rowAt = Date.now();
      expect((await overview.rowsText()).find((r) => r.domain === FQDN)!.status).toContain(
        'SPF disconnected',
      );
      const after = await row(FQDN);
      expect(after.posture.protocols.spf).toMatchObject({
        state: 'failing',
        words: 'disconnected',
        evidence: { source: 'dns_watch', label: `DNS via ${dns}` },
      });
      // Newer than anything the service said: the health snapshot the app holds predates the change.
      expect(Date.parse(after.health!.scannedAt)).toBeLessThan(changedAt);
      expect(after.posture.protocolsText).toMatch(/^1 of 2 required pass/);
      const alerts = await app().listAlerts({ open: true });
      const alert = alerts.find((a) => a.rule === 'protocol_disconnected' && a.fqdn === FQDN);
      expect(alert?.title).toBe(`SPF record of ${FQDN} disconnected`);
      expect(alertAt).not.toBeNull();
      const t = await tray();
      expect(t.status).toBe('alerts');
      expect(t.tooltip).toMatch(
        new RegExp(`${FQDN.replace('.', '\\.')}: SPF disconnected|domains with problems`),
      );
      // The notification says it in the header's words.
      const notified = () =>
        other.page.evaluate(
          () => (window as unknown as { notified: { title: string; body: string }[] }).notified,
        );
      await expect
        .poll(async () => (await notified()).map((n) => n.title), { timeout: 5_000 })
        .toContain(`${FQDN} — SPF disconnected`);
      expect((await notified()).find((n) => n.title === `${FQDN} — SPF disconnected`)!.body).toMatch(
        /no longer connected \(reported by Authwatch's own DNS watch\)/,
      );

      // Published again: DNS says so first, and the header follows.
      const restoredAt = Date.now();
      await suite.world.service.setRecord(FQDN, 'spf', before.posture.protocols.spf.record);
      await expect
        .poll(() => chip.getAttribute('data-state'), {
          timeout: DEFAULT_PACE ? 240_000 : 40_000,
          interval: 100,
        })
        .toBe('passing');
      const headerBackAt = Date.now();
      expect(await domain.verdict()).not.toBe('SPF disconnected');
      expect(
        (await app().listAlerts({ open: true })).some(
          (a) => a.rule === 'protocol_disconnected' && a.fqdn === FQDN,
        ),
      ).toBe(false);

      const timing = {
        pace: DEFAULT_PACE
          ? 'app defaults (TTL 60 s, floor 60 s, 3 answers 15 s apart)'
          : 'e2e (TTL 5 s, 3 answers 1 s apart)',
        sandboxChangeToAlertMs: alertAt! - changedAt,
        sandboxChangeToHeaderMs: headerAt - changedAt,
        headerToRowMs: rowAt - headerAt,
        sandboxRestoreToHeaderMs: headerBackAt - restoredAt,
        evidence: after.posture.protocols.spf.evidence,
      };
      mkdirSync(E2E_DIR, { recursive: true });
      writeFileSync(join(E2E_DIR, 'dns-status-timing.json'), JSON.stringify(timing, null, 2));
      console.log(
        `DNS watch: sandbox SPF removal → header ${timing.sandboxChangeToHeaderMs} ms (${JSON.stringify(timing)})`,
      );
    },
  );
});
