import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import type { WebhookFormat } from '../mirror/deliveryTypes.ts';
import { DeliveryError } from './deliveryError.ts';
import type { OutgoingMessage } from './message.ts';
import { postToReceiver } from './receiverAnswer.ts';
import { signWebhook } from './signature.ts';
import type { ChannelTransport } from './transport.ts';
import { webhookBody } from './webhookBodies.ts';

/** What a webhook transport needs. */
export interface WebhookTransportOptions {
  format: WebhookFormat;
  url: string;
  /** What may be shown of the URL in errors (its token never is). */
  urlShown: string;
  /** The generic format's signing secret; without one no signature header is sent. */
  secret: string | null;
  fetch: typeof fetch;
  nowMs: () => number;
  timeZone: () => string | null;
  /** Every alert's words (the whole rule registry's catalogue). */
  catalogue: AlertCatalogue;
}

/** POSTs each message as JSON; a generic webhook's body is signed with HMAC-SHA256 over "<ts>.<body>". */
export function webhookTransport(o: WebhookTransportOptions): ChannelTransport {
  return {
    async send(message: OutgoingMessage, signal: AbortSignal) {
      const body = webhookBody(o.format, message, o.timeZone(), o.catalogue);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'Authwatch',
      };
      if (o.format === 'generic') {
        const ts = Math.floor(o.nowMs() / 1000);
        headers['x-authwatch-event-id'] = message.id;
        headers['x-authwatch-timestamp'] = String(ts);
        if (o.secret) headers['x-authwatch-signature'] = signWebhook(o.secret, ts, body);
      }
      const answer = await postToReceiver(
        o.fetch,
        { url: o.url, headers, body, shown: o.urlShown, hide: [o.url] },
        signal,
      );
      // The answer's text is never trusted for words: only its status counts.
      if (answer.status < 200 || answer.status > 299)
        throw new DeliveryError(`${o.urlShown} answered HTTP ${answer.status}`);
    },
  };
}

/** What may be shown of a webhook URL: its scheme and host; the path (where Slack and Teams keep the token) never. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}/…`;
}
