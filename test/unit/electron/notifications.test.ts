import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../shared/bridge/results.ts';
import { alertRoute, desktopNotifier } from '../../../main/electron/notifications.ts';
import { createFakeElectron } from '../../support/fakeElectron.ts';

// Only the fields a notification reads matter here; the cast keeps this test independent of newer ones.
const alert = {
  id: 7,
  accountId: 3,
  rule: 'protocol_disconnected',
  severity: 'critical',
  domainId: 42,
  fqdn: 'acme.example',
  title: 'SPF record of acme.example disconnected',
  body: 'The SPF record of acme.example is no longer connected (reported by the guard scan at 2026-06-15T11:58:00Z).',
  dedupeKey: 'k',
  firstSeenAt: '2026-06-15T12:00:00.000Z',
  lastSeenAt: '2026-06-15T12:00:00.000Z',
  resolvedAt: null,
  acknowledgedAt: null,
  snoozedUntil: null,
  deliveredAt: null,
  suppressed: null,
  details: { protocol: 'spf', disconnectedAt: '2026-06-15T11:58:00Z', source: 'health' },
  endReason: null,
  endedAt: null,
} as Alert;

describe('desktop notifications', () => {
  it('keeps each notification referenced until closed, and a click opens the alert’s domain', async () => {
    const e = createFakeElectron({ userData: '/nonexistent' });
    const opened: string[] = [];
    const notifier = desktopNotifier({ Notification: e.module.Notification, open: (r) => opened.push(r) });
    await notifier.notify(alert);
    await notifier.notify({ ...alert, id: 8, domainId: 43 });
    expect(e.notifications.map((n) => [n.shown, n.options.title])).toEqual([
      [true, 'acme.example — SPF disconnected'],
      [true, 'acme.example — SPF disconnected'],
    ]);
    expect(notifier.showing).toBe(2);
    e.notifications[1]!.emit('click');
    expect(opened).toEqual(['#/domain/3/43']);
    expect(notifier.showing).toBe(1);
    e.notifications[0]!.close();
    expect(notifier.showing).toBe(0);
  });

  it('many alerts that waited come as one notification whose click opens the alert list', async () => {
    const e = createFakeElectron({ userData: '/nonexistent' });
    const opened: string[] = [];
    const notifier = desktopNotifier({ Notification: e.module.Notification, open: (r) => opened.push(r) });
    await notifier.notifySummary!({ count: 37, critical: 3, since: '2026-06-01T08:00:00.000Z' });
    expect(e.notifications.map((n) => [n.shown, n.options.title, n.options.body])).toEqual([
      [true, '37 alerts while you were away', '3 critical — open Alerts to see them.'],
    ]);
    e.notifications[0]!.emit('click');
    expect(opened).toEqual(['#/alerts']);
    expect(notifier.showing).toBe(0);
  });

  it('routes account alerts to the alert list', () => {
    expect(alertRoute({ accountId: 1, domainId: null })).toBe('#/alerts');
  });

  it('a click shows the window on that domain through the bridge event “navigate”', async () => {
    // The shell's navigate(): what a notification click calls.
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { startDesktopApp } = await import('../../../main/electron/desktopApp.ts');
    const dir = mkdtempSync(join(tmpdir(), 'authwatch-notify-'));
    const e = createFakeElectron({ userData: dir });
    const app = await startDesktopApp(
      e.module as never,
      {
        preload: '/p.cjs',
        renderer: dir,
        trayIcons: { ok: 'ok.png', warnings: 'w.png', alerts: 'a.png' },
        db: join(dir, 'm.db'),
      },
      { say: () => undefined, argv: ['--hidden'] },
    );
    expect(e.windows[0]!.visible).toBe(false); // a login-item start stays in the tray
    const notifier = desktopNotifier({ Notification: e.module.Notification, open: app!.navigate });
    await notifier.notify(alert);
    e.notifications[0]!.emit('click');
    expect(e.windows[0]!.visible).toBe(true);
    expect(e.windows[0]!.webContents.sent).toContainEqual({
      channel: 'authwatch:event',
      payload: { event: 'navigate', payload: { route: '#/domain/3/42' } },
    });
    e.module.app.quit();
    await new Promise((r) => setTimeout(r, 50));
    rmSync(dir, { recursive: true, force: true });
  });
});
