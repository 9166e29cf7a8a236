import type { AlertCatalogue } from './ruleSet.ts';

/** An alert as its words are chosen: the rule that raised it, its stored title and details. */
export interface WordedAlert {
  rule: string;
  title: string;
  details: unknown;
}

/**
 * The status model's words for one alert: "SPF disconnected", "Threat sending as this domain" — the same
 * words in the header, the row, the tray tooltip, the notification and the terminal. Each rule's file says
 * them (alerts/rules/*, `words`); the alert's stored title keeps the particulars (the source's name, the
 * scores). An alert the rules give no words for (an account's token, a rule no longer known) keeps its title.
 * `catalogue` is the whole rule registry's (livechecks/ruleRegistry.ts, passed in: the live checks' rules are
 * above this folder).
 */
export function alertWords(alert: WordedAlert, catalogue: AlertCatalogue): string {
  const words = catalogue.get(alert.rule)?.words;
  if (typeof words === 'string') return words;
  const details =
    alert.details && typeof alert.details === 'object' ? (alert.details as Record<string, unknown>) : {};
  return words?.(details) ?? alert.title;
}
