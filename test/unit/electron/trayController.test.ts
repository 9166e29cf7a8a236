import { describe, expect, it } from 'vitest';
import { createTrayController, type TrayFacade } from '../../../main/electron/tray.ts';
import { domainStatus as deriveStatus } from '../../../main/core/status/index.ts';
import type { MirrorOverviewRow } from '../../../main/core/mirror/types.ts';
import { ALERT_CATALOGUE } from '../../../main/core/livechecks/ruleRegistry.ts';

/** A domain's status in every rule's words, as the runtime's status model derives it. */
const domainStatus = (input: Parameters<typeof deriveStatus>[0]) => deriveStatus(input, ALERT_CATALOGUE);

const AT = '2026-06-15T10:00:00Z';
function row(fqdn: string, spfRemoved: boolean): MirrorOverviewRow {
  const posture = domainStatus({
    evidence: [
      { protocol: 'dmarc', source: 'service_scan', at: AT, finding: 'valid', record: 'v=DMARC1; p=reject' },
      { protocol: 'spf', source: 'service_scan', at: AT, finding: 'valid' },
      ...(spfRemoved
        ? [
            {
              protocol: 'spf' as const,
              source: 'dns_event' as const,
              at: '2026-06-15T10:05:00Z',
              finding: 'absent' as const,
              record: null,
            },
          ]
        : []),
    ],
    openAlerts: [],
  });
  return { fqdn, posture } as MirrorOverviewRow;
}

function fakeTray() {
  const tray = {
    image: '',
    tooltip: '',
    setImage(i: string) {
      tray.image = i;
    },
    setToolTip(t: string) {
      tray.tooltip = t;
    },
    setContextMenu() {},
    on() {
      return tray;
    },
    destroy() {},
  };
  return tray;
}

/** A tray controller on the fake tray and a facade, its icons named by status; errors fail the test. */
function controllerOn(tray: ReturnType<typeof fakeTray>, facade: TrayFacade) {
  return createTrayController({
    tray,
    Menu: { buildFromTemplate: (t) => t },
    icons: { ok: 'ok.png', warnings: 'warnings.png', alerts: 'alerts.png' },
    facade,
    open() {},
    syncNow() {},
    quit() {},
    now: () => Date.parse(AT),
    onError: (what, error) => {
      throw error;
    },
  });
}

describe('the tray controller', () => {
  it('shows the same verdicts as the window: a domain whose SPF was removed makes it "alerts", named', async () => {
    let rows = [row('a.example', false), row('b.example', false)];
    const facade = {
      overview: async () => rows,
      listAlerts: async () => [],
      getSettings: async () => ({ notificationsPausedUntil: null }),
      silencedCount: async () => ({ silenced: 0 }),
      pauseNotifications: async () => undefined,
      on: () => () => undefined,
    } as unknown as TrayFacade;
    const tray = fakeTray();
    const controller = controllerOn(tray, facade);
    await controller.refresh();
    expect([tray.image, tray.tooltip]).toEqual(['ok.png', 'Authwatch — no problems found on 2 domains']);
    rows = [row('a.example', false), row('b.example', true)];
    await controller.refresh();
    expect([tray.image, tray.tooltip]).toEqual(['alerts.png', 'Authwatch — b.example: SPF disconnected']);
    controller.dispose();
  });

  it('names an older account alert (the token expired) behind more than 100 newer open domain alerts', async () => {
    const openAlerts = [
      ...Array.from({ length: 150 }, (_, i) => ({
        domainId: i + 1,
        severity: 'critical',
        title: `SPF disconnected on d${i}.example`,
      })),
      { domainId: null, severity: 'critical', title: 'The API token for “Acme” was rejected' },
    ];
    const facade = {
      overview: async () => [row('a.example', false)],
      // As the bridge answers: the newest `limit` open alerts (100 unless asked), newest first.
      listAlerts: async (args?: { open?: boolean; limit?: number }) =>
        openAlerts.slice(0, args?.limit ?? 100),
      getSettings: async () => ({ notificationsPausedUntil: null }),
      silencedCount: async () => ({ silenced: 0 }),
      pauseNotifications: async () => undefined,
      on: () => () => undefined,
    } as unknown as TrayFacade;
    const tray = fakeTray();
    const controller = controllerOn(tray, facade);
    await controller.refresh();
    expect([tray.image, tray.tooltip]).toEqual([
      'alerts.png',
      'Authwatch — The API token for “Acme” was rejected',
    ]);
    controller.dispose();
  });

  it('counts the silenced alerts apart in the tooltip, from the facade’s one count', async () => {
    let silenced = 0;
    const facade = {
      overview: async () => [row('a.example', true), row('b.example', false)],
      listAlerts: async () => [],
      getSettings: async () => ({ notificationsPausedUntil: null }),
      silencedCount: async () => ({ silenced }),
      pauseNotifications: async () => undefined,
      on: () => () => undefined,
    } as unknown as TrayFacade;
    const tray = fakeTray();
    const controller = controllerOn(tray, facade);
    await controller.refresh();
    expect(tray.tooltip).toBe('Authwatch — a.example: SPF disconnected');
    silenced = 3;
    await controller.refresh();
    // Still shown as a problem (a silence holds notifications, not the truth), and said apart.
    expect([tray.image, tray.tooltip]).toEqual([
      'alerts.png',
      'Authwatch — a.example: SPF disconnected; 3 silenced',
    ]);
    controller.dispose();
  });
});
