import type { Alert } from '../../../shared/bridge/results.ts';
import { timeInWords, type TimeWordsOptions } from '../../../shared/time/timeWords.ts';

/** When an alert was first seen, in the app's one format, for text without hover ("5 minutes ago (…)"). */
export function notificationWhen(now: () => number, options: TimeWordsOptions = {}): (iso: string) => string {
  return (iso) => timeInWords(iso, now(), options);
}

/**
 * "acme.example — SPF record disconnected" and "<when>: <what changed>". The domain leads the title because
 * it is what the user scans a stack of notifications for; the rule's title loses its "of acme.example".
 * Every shell's notification (the desktop's, the browser window's) is worded here.
 */
export function notificationText(
  alert: Pick<Alert, 'fqdn' | 'title' | 'body' | 'firstSeenAt'>,
  formatWhen: (iso: string) => string = notificationWhen(Date.now),
): { title: string; body: string } {
  const { fqdn } = alert;
  const title = fqdn
    ? `${fqdn} — ${alert.title.replace(` of ${fqdn}`, '').replace(` as ${fqdn}`, '')}`
    : alert.title;
  return { title, body: `${formatWhen(alert.firstSeenAt)}: ${alert.body}` };
}
