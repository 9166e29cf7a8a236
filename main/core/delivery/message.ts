import type { Severity } from '../alerts/types.ts';
import type { Acknowledgement, OutboxEventType, SilenceNote } from '../mirror/deliveryTypes.ts';
import type { Alert } from '../mirror/types.ts';

/**
 * What a message says happened: an alert opened, one ended, someone acknowledged one (or took that back),
 * or the user asked for a test.
 */
export type MessageType = OutboxEventType | 'test';

/** One alert in a message, in the words and fields every channel shares (the webhook's `alert` object). */
export interface MessageAlert {
  /** The event id of this alert event (stable across retries; shared by every channel). */
  eventId: string;
  rule: string;
  severity: Severity;
  account: string;
  domain: string | null;
  protocol: string | null;
  title: string;
  body: string;
  firstSeen: string;
  resolvedAt: string | null;
  endReason: string | null;
  /** An acknowledgement update's who, when and note. */
  acknowledgement?: Acknowledgement;
  /** An alert.silenced update's silence. */
  silence?: SilenceNote;
  /** Acknowledged (the Alertmanager channel labels it so); set for every message but the test. */
  acknowledged?: boolean;
}

/**
 * One message to one channel. `id` is the single alert's event id, or the batch's own id when several
 * alerts of one pass are grouped; it never changes between attempts.
 */
export interface OutgoingMessage {
  id: string;
  type: MessageType;
  alerts: MessageAlert[];
}

/** The message form of a stored alert. */
export function messageAlert(
  alert: Alert,
  accountLabel: string,
  eventId: string,
  acknowledgement?: Acknowledgement,
  silence?: SilenceNote,
): MessageAlert {
  const protocol = alert.details.protocol;
  return {
    ...(acknowledgement ? { acknowledgement } : {}),
    ...(silence ? { silence } : {}),
    acknowledged: alert.acknowledgedAt !== null,
    eventId,
    rule: alert.rule,
    severity: alert.severity,
    account: accountLabel,
    domain: alert.fqdn,
    protocol: typeof protocol === 'string' ? protocol : null,
    title: alert.title,
    body: alert.body,
    firstSeen: alert.firstSeenAt,
    resolvedAt: alert.resolvedAt,
    endReason: alert.endReason,
  };
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };

/** The loudest severity of a message's alerts. */
export function topSeverity(alerts: readonly MessageAlert[]): Severity {
  let top: Severity = 'info';
  for (const a of alerts) if (RANK[a.severity] > RANK[top]) top = a.severity;
  return top;
}

/** The domains a message is about, each once, in order (account alerts name the account instead). */
export function domainsOf(alerts: readonly MessageAlert[]): string[] {
  return [...new Set(alerts.map((a) => a.domain ?? `account ${a.account}`))];
}

/** A test message: what a channel shows when the user presses "Send a test". */
export function testMessage(id: string, at: string): OutgoingMessage {
  return {
    id,
    type: 'test',
    alerts: [
      {
        eventId: id,
        rule: 'test',
        severity: 'info',
        account: 'Authwatch',
        domain: null,
        protocol: null,
        title: 'Test message from Authwatch',
        body: 'This channel works: Authwatch alerts will arrive here.',
        firstSeen: at,
        resolvedAt: null,
        endReason: null,
      },
    ],
  };
}
