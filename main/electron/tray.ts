import { trayStatus, type Authwatch, type TrayStatus } from '../core/index.ts';

/** The bridge's largest alert list (shared/bridge/args.ts listAlertsArgs). */
const OPEN_ALERTS_READ = 10_000;

/** The parts of Electron's Tray and Menu we use. */
export interface TrayLike {
  setImage(image: string): void;
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}
export interface MenuItemTemplate {
  label?: string;
  type?: 'separator';
  enabled?: boolean;
  click?: () => void;
}
export interface MenuApi {
  buildFromTemplate(template: MenuItemTemplate[]): unknown;
}

export type TrayFacade = Pick<
  Authwatch,
  'overview' | 'listAlerts' | 'getSettings' | 'silencedCount' | 'pauseNotifications' | 'on'
>;

export const PAUSE_MS = 60 * 60 * 1000;

/** The tray menu: Open, Sync now, Pause notifications for 1 hour (or Resume while paused), Quit. */
export function trayMenuTemplate(
  actions: { open(): void; syncNow(): void; pause(): void; resume(): void; quit(): void },
  paused: boolean,
): MenuItemTemplate[] {
  return [
    { label: 'Open Authwatch', click: actions.open },
    { label: 'Sync now', click: actions.syncNow },
    paused
      ? { label: 'Resume notifications', click: actions.resume }
      : { label: 'Pause notifications for 1 hour', click: actions.pause },
    { type: 'separator' },
    { label: 'Quit Authwatch', click: actions.quit },
  ];
}

/**
 * Keeps the tray icon, tooltip and menu in step with the mirror: re-read after every change the facade
 * reports (coalesced: a sync emits many). The window's close button hides to here; Quit really quits.
 */
export function createTrayController(options: {
  tray: TrayLike;
  Menu: MenuApi;
  icons: Record<TrayStatus, string>;
  facade: TrayFacade;
  open(): void;
  syncNow(): void;
  quit(): void;
  now(): number;
  onError(what: string, error: unknown): void;
}): { refresh(): Promise<void>; dispose(): void } {
  const { tray, facade } = options;
  let running: Promise<void> | null = null;
  let again = false;

  const pause = (until: number | null) => {
    facade
      .pauseNotifications({ until })
      .then(() => refresh())
      .catch((error: unknown) => options.onError('pause notifications', error));
  };

  const render = async () => {
    // The same verdicts the window's rows and headers show (main/core/status), plus the account alerts.
    const [rows, open, settings, held] = await Promise.all([
      facade.overview(undefined),
      // Every open alert the bridge gives (its most): the account-level ones are kept below, and the default
      // newest 100 can all be domain alerts, which left an older expired-token alert out of the tray.
      facade.listAlerts({ open: true, limit: OPEN_ALERTS_READ }),
      facade.getSettings(),
      // The window's header counts the same way (one model: main/core/app/heldAlerts.ts).
      facade.silencedCount(),
    ]);
    const paused = settings.notificationsPausedUntil;
    const domains = rows.map((r) => ({ fqdn: r.fqdn, verdict: r.posture.verdict }));
    const { status, tooltip } = trayStatus(
      domains,
      open.filter((a) => a.domainId === null),
      { pausedUntil: paused, silenced: held.silenced },
    );
    tray.setImage(options.icons[status]);
    tray.setToolTip(tooltip);
    tray.setContextMenu(
      options.Menu.buildFromTemplate(
        trayMenuTemplate(
          {
            open: options.open,
            syncNow: options.syncNow,
            pause: () => pause(options.now() + PAUSE_MS),
            resume: () => pause(null),
            quit: options.quit,
          },
          paused !== null,
        ),
      ),
    );
  };

  function refresh(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await render();
        } catch (error) {
          options.onError('update the tray', error);
        }
      } while (again);
      running = null;
    })();
    return running;
  }

  tray.on('click', options.open);
  const unsubscribe = facade.on((event) => {
    if (
      event.type === 'changed' ||
      event.type === 'alert_delivered' ||
      event.type === 'alerts_summarized' ||
      event.type === 'alerts_changed' ||
      event.type === 'settings_changed' ||
      event.type === 'accounts_changed'
    )
      void refresh();
  });
  void refresh();
  return {
    refresh,
    dispose() {
      unsubscribe();
      tray.destroy();
    },
  };
}
