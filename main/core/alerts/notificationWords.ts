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
  return {
    title: withoutControls(title),
    body: withoutControls(`${formatWhen(alert.firstSeenAt)}: ${alert.body}`),
  };
}

/** Control characters (C0 but newline, DEL, C1) from service text shown as U+FFFD in the OS notification. */
function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}
