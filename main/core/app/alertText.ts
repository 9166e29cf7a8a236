import type { Alert } from '../../../shared/bridge/results.ts';
import {
  alertLine as alertLineIn,
  notificationText as notificationTextIn,
  type NotifiedAlert,
} from '../alerts/notificationWords.ts';
import { ALERT_CATALOGUE } from '../livechecks/ruleRegistry.ts';

// The shells' words of an alert, in every rule's words (the live checks' too: their rules are known from
// livechecks/ up, so the words below take the catalogue as an argument and the facade passes the whole one).

/** An alert's notification title and body (alerts/notificationWords.ts), for the shells. */
export function notificationText(
  alert: NotifiedAlert,
  formatWhen?: (iso: string) => string,
): { title: string; body: string } {
  return notificationTextIn(alert, ALERT_CATALOGUE, formatWhen);
}

/** The terminal's line for a new alert (alerts/notificationWords.ts), for the command line. */
export function alertLine(alert: NotifiedAlert & Pick<Alert, 'severity'>): string {
  return alertLineIn(alert, ALERT_CATALOGUE);
}
