import type { Alert } from '../../shared/bridge/results.ts';
import { notificationText, summaryText, type Notifier } from '../core/index.ts';

/** The part of Electron's Notification class we use. */
export interface NotificationLike {
  show(): void;
  close(): void;
  on(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
}
export interface NotificationClass {
  new (options: { title: string; body: string }): NotificationLike;
  isSupported(): boolean;
}

/** Where a click on an alert's notification takes the window: its domain, else the alert list. */
export function alertRoute(alert: Pick<Alert, 'accountId' | 'domainId'>): string {
  return alert.domainId !== null ? `#/domain/${alert.accountId}/${alert.domainId}` : '#/alerts';
}

/**
 * The facade's Notifier for the desktop: one native notification per delivered alert (one for all of them
 * when many waited: the summary opens the alert list). Each is kept
 * referenced until it closes (an unreferenced Notification is garbage-collected and its click lost); a click
 * brings the window up on the alert's domain.
 */
export function desktopNotifier(options: {
  Notification: NotificationClass;
  open: (route: string) => void;
  formatWhen?: (iso: string) => string;
}): Notifier & { readonly showing: number } {
  const live = new Set<NotificationLike>();
  return {
    channel: 'desktop',
    get showing() {
      return live.size;
    },
    notify(alert) {
      // Without a notification service the tray icon and the window still show the alert.
      if (!options.Notification.isSupported()) return;
      const notification = new options.Notification(notificationText(alert, options.formatWhen));
      const forget = () => live.delete(notification);
      notification.on('click', () => {
        forget();
        options.open(alertRoute(alert));
      });
      notification.on('close', forget);
      notification.on('failed', forget);
      live.add(notification);
      notification.show();
    },
    notifySummary(summary) {
      if (!options.Notification.isSupported()) return;
      const notification = new options.Notification(summaryText(summary));
      const forget = () => live.delete(notification);
      notification.on('click', () => {
        forget();
        options.open('#/alerts');
      });
      notification.on('close', forget);
      notification.on('failed', forget);
      live.add(notification);
      notification.show();
    },
  };
}
