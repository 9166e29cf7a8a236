import { DeliveryError, errorWords } from './deliveryError.ts';
import type { MessageAlert, OutgoingMessage } from './message.ts';
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
 * empty label as absent).
 */
export function postableAlert(a: MessageAlert, resolved: boolean): PostableAlert {
  const labels: Record<string, string> = { alertname: a.rule, severity: a.severity, account: a.account };
  if (a.domain) labels.domain = a.domain;
  if (a.protocol) labels.protocol = a.protocol;
  return {
    labels,
    annotations: { summary: a.title, description: a.body },
    startsAt: a.firstSeen,
    // An open alert carries no endsAt: Alertmanager keeps it for its resolve_timeout, and the re-sends
    // renew that. A resolved one ends when its cause ended.
    ...(resolved && a.resolvedAt ? { endsAt: a.resolvedAt } : {}),
  };
}

/** Posts alerts to Alertmanager; `resend` renews the open ones. */
export function alertmanagerTransport(o: { url: string; fetch: typeof fetch }): ChannelTransport {
  const endpoint = `${o.url.replace(/\/+$/, '')}/api/v2/alerts`;
  const post = async (alerts: PostableAlert[], signal: AbortSignal) => {
    let response: Response;
    try {
      response = await o.fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Authwatch' },
        body: JSON.stringify(alerts),
        signal,
      });
    } catch (error) {
      throw new DeliveryError(`Alertmanager at ${o.url} could not be reached: ${errorWords(error)}`);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok)
      throw new DeliveryError(
        `Alertmanager at ${o.url} answered HTTP ${response.status}: ${text.slice(0, 200)}`,
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
