import { DeliveryError, errorWords } from './deliveryError.ts';
import type { MessageAlert, OutgoingMessage } from './message.ts';
import { postToReceiver } from './receiverAnswer.ts';
import type { ChannelTransport } from './transport.ts';

/** One alert as Alertmanager's v2 API takes it (POST /api/v2/alerts). */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt?: string;
}

/**
 * The labels are the ones the metrics use (alertname = the rule, severity, account, domain, protocol), so
 * an Alertmanager route or a PromQL join can match them; empty ones are left out (Alertmanager treats an
 * empty label as absent). An acknowledged alert carries `acknowledged="true"` (a route or an inhibit rule
 * can match it) with who and the note as annotations.
 */
export function postableAlert(
  a: MessageAlert,
  resolved: boolean,
  acknowledged = a.acknowledged === true,
): PostableAlert {
  const labels: Record<string, string> = { alertname: a.rule, severity: a.severity, account: a.account };
  if (a.domain) labels.domain = a.domain;
  if (a.protocol) labels.protocol = a.protocol;
  if (acknowledged) labels.acknowledged = 'true';
  const ack = acknowledged ? a.acknowledgement : undefined;
  return {
    labels,
    annotations: {
      summary: a.title,
      description: a.body,
      ...(ack ? { ack_by: ack.by, ack_at: ack.at } : {}),
      ...(ack?.note ? { ack_note: ack.note } : {}),
    },
    startsAt: a.firstSeen,
    // An open alert carries no endsAt: Alertmanager keeps it for its resolve_timeout, and the re-sends
    // renew that. A resolved one ends when its cause ended.
    ...(resolved && a.resolvedAt ? { endsAt: a.resolvedAt } : {}),
  };
}

/**
 * An acknowledgement (or its withdrawal) as Alertmanager can take it: its labels identify an alert, so the
 * alert under its former labels ends now and goes on under the new ones — `acknowledged="true"` with
 * `ack_by`, `ack_at` and `ack_note` — which Alertmanager routes and notifies as a new alert (a receiver, a
 * route `matchers: [acknowledged="true"]` or an inhibit rule decides what that does).
 */
function acknowledgementUpdate(a: MessageAlert, acknowledged: boolean, at: string): PostableAlert[] {
  return [{ ...postableAlert(a, false, !acknowledged), endsAt: at }, postableAlert(a, false, acknowledged)];
}

/** Alertmanager's v2 alerts endpoint under its base URL (a path prefix and a query are kept where they belong). */
export function alertsEndpoint(base: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/v2/alerts`;
  return url.href;
}

/** What an Alertmanager transport needs: the base URL (from the secret store when it carries a token). */
export interface AlertmanagerTransportOptions {
  url: string;
  /** What may be shown of the URL in errors (its token never is). */
  urlShown: string;
  fetch: typeof fetch;
}

/** Posts alerts to Alertmanager; `resend` renews the open ones. */
export function alertmanagerTransport(o: AlertmanagerTransportOptions): ChannelTransport {
  const endpoint = alertsEndpoint(o.url);
  const post = async (alerts: PostableAlert[], signal: AbortSignal) => {
    const shown = `Alertmanager at ${o.urlShown}`;
    const answer = await postToReceiver(
      o.fetch,
      {
        url: endpoint,
        headers: { 'content-type': 'application/json', 'user-agent': 'Authwatch' },
        body: JSON.stringify(alerts),
        shown,
        hide: [o.url, endpoint],
      },
      signal,
    );
    if (answer.status < 200 || answer.status > 299)
      throw new DeliveryError(
        `${shown} answered HTTP ${answer.status}: ${errorWords(answer.text.slice(0, 200), [o.url, endpoint])}`,
      );
  };
  return {
    async send(message: OutgoingMessage, signal: AbortSignal) {
      // A test goes through as a short-lived info alert that ends a minute later.
      if (message.type === 'test') {
        const a = message.alerts[0]!;
        const ends = new Date(Date.parse(a.firstSeen) + 60_000).toISOString();
        await post([{ ...postableAlert(a, false), endsAt: ends }], signal);
        return;
      }
      if (message.type === 'alert.acknowledged' || message.type === 'alert.unacknowledged') {
        const acknowledged = message.type === 'alert.acknowledged';
        // The former labels end the moment Alertmanager hears of it (its own clock reads endsAt).
        const now = new Date().toISOString();
        await post(
          message.alerts.flatMap((a) => acknowledgementUpdate(a, acknowledged, now)),
          signal,
        );
        return;
      }
      // Alertmanager has silences of its own: a silence here changes nothing of what it is told (a route of
      // ours that asks for silence events is heard by its other channels).
      if (message.type === 'alert.silenced' || message.type === 'alert.unsilenced') return;
      await post(
        message.alerts.map((a) => postableAlert(a, message.type === 'alert.resolved')),
        signal,
      );
    },
    async resend(alerts: MessageAlert[], signal: AbortSignal) {
      if (alerts.length > 0)
        await post(
          alerts.map((a) => postableAlert(a, false)),
          signal,
        );
    },
  };
}
