import { isProtocol } from '../signals/primitives.ts';
import { PROTOCOL_LABELS } from '../../../shared/email-auth/protocols.ts';

/** An alert as its words are chosen: the rule that raised it, its stored title and details. */
export interface WordedAlert {
  rule: string;
  title: string;
  details: unknown;
}

// What is wrong, as the domain's verdict says it: the same words in the header, the row, the tray tooltip,
// the notification and the terminal. The rule's stored title keeps the particulars (the source's name, the
// scores), the body says what changed.
const RULE_WORDS: Record<string, string> = {
  threat_source_appeared: 'Threat sending as this domain',
  score_dropped: 'Security score dropped',
  health_regressed: 'Health got worse',
};

function protocolOf(details: unknown): string | null {
  const protocol =
    details && typeof details === 'object' ? (details as Record<string, unknown>).protocol : undefined;
  return typeof protocol === 'string' && isProtocol(protocol) ? PROTOCOL_LABELS[protocol] : null;
}

/**
 * The status model's words for one alert: "SPF disconnected", "Threat sending as this domain". An alert
 * the model has no words for (an account's token, a rule it does not know) keeps its own title.
 */
export function alertWords(alert: WordedAlert): string {
  if (alert.rule === 'protocol_disconnected' || alert.rule === 'protocol_restored') {
    const label = protocolOf(alert.details);
    if (label)
      return alert.rule === 'protocol_disconnected' ? `${label} disconnected` : `${label} connected again`;
    return alert.title;
  }
  return RULE_WORDS[alert.rule] ?? alert.title;
}
