import type { Alert } from '../../../shared/bridge/results.ts';
import { timeInWords, type TimeWordsOptions } from '../../../shared/time/timeWords.ts';
import { alertWords } from './alertWords.ts';
import type { AlertCatalogue } from './ruleSet.ts';

/** When an alert was first seen, in the app's one format, for text without hover ("5 minutes ago (…)"). */
export function notificationWhen(now: () => number, options: TimeWordsOptions = {}): (iso: string) => string {
  return (iso) => timeInWords(iso, now(), options);
}

/** The words of an alert's notification and terminal line. */
export type NotifiedAlert = Pick<Alert, 'fqdn' | 'title' | 'body' | 'details' | 'firstSeenAt'> & {
  // Any rule name: a channel's message words its alerts (and its test message) the same way.
  rule: string;
};

/**
 * "acme.example — SPF disconnected" and "<when>: <what changed>". The domain leads the title because it is
 * what the user scans a stack of notifications for; what happened is said in the status model's words (the
 * header and the row say the same), the body keeps the particulars. Every shell's notification (the
 * desktop's, the browser window's) is worded here.
 */
export function notificationText(
  alert: NotifiedAlert,
  catalogue: AlertCatalogue,
  formatWhen: (iso: string) => string = notificationWhen(Date.now),
): { title: string; body: string } {
  const { fqdn } = alert;
  // Words the model has none for keep the rule's title, without the domain the title already leads with.
  const words = alertWords(alert, catalogue);
  const title = fqdn
    ? `${fqdn} — ${words === alert.title ? words.replace(` of ${fqdn}`, '').replace(` as ${fqdn}`, '') : words}`
    : words;
  return {
    title: withoutControls(title),
    body: withoutControls(`${formatWhen(alert.firstSeenAt)}: ${alert.body}`),
  };
}

/**
 * The one notification for many alerts that waited (the app opened after a long time away):
 * "37 alerts while you were away" and "3 critical — open Alerts to see them." A click opens the alert list.
 */
export function summaryText(summary: { count: number; critical: number }): { title: string; body: string } {
  return {
    title: `${summary.count.toLocaleString('en')} alerts while you were away`,
    body:
      summary.critical > 0
        ? `${summary.critical.toLocaleString('en')} critical — open Alerts to see them.`
        : 'Open Alerts to see them.',
  };
}

/** The terminal's line for a new alert: "ALERT [critical] acme.example — SPF disconnected". */
export function alertLine(alert: NotifiedAlert & Pick<Alert, 'severity'>, catalogue: AlertCatalogue): string {
  return withoutControls(`ALERT [${alert.severity}] ${notificationText(alert, catalogue, () => '').title}`);
}

/** Control characters (C0 but newline, DEL, C1) from service text shown as U+FFFD in the OS notification. */
function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}
