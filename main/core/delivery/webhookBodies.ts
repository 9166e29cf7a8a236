import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import type { WebhookFormat } from '../mirror/deliveryTypes.ts';
import { domainsOf, type MessageAlert, type OutgoingMessage } from './message.ts';
import { LISTED_ALERTS, localTime, plainTextOf, subjectOf } from './messageText.ts';

/** The generic format's `alert` object (snake_case, optional fields left out when empty). */
function genericAlert(a: MessageAlert): Record<string, unknown> {
  return {
    rule: a.rule,
    severity: a.severity,
    account: a.account,
    domain: a.domain,
    ...(a.protocol ? { protocol: a.protocol } : {}),
    title: a.title,
    body: a.body,
    first_seen: a.firstSeen,
    ...(a.resolvedAt ? { resolved_at: a.resolvedAt } : {}),
    ...(a.endReason ? { end_reason: a.endReason } : {}),
    ...(a.acknowledgement
      ? {
          acknowledged_by: a.acknowledgement.by,
          acknowledged_at: a.acknowledgement.at,
          ...(a.acknowledgement.note ? { note: a.acknowledgement.note } : {}),
        }
      : {}),
    ...(a.silence
      ? { silenced_by: a.silence.by, silence_reason: a.silence.reason, silenced_until: a.silence.until }
      : {}),
  };
}

/** The generic body's version (shared/webhook/webhook-v1.schema.json describes it). */
export const WEBHOOK_BODY_VERSION = '1';

/**
 * The generic body: one shape for every message, as Alertmanager's webhook — `{version, id, type, alerts}`,
 * each alert with its own `event_id`, so a receiver never branches on how many there are and can drop
 * alerts it has seen.
 */
function genericBody(message: OutgoingMessage): unknown {
  return {
    version: WEBHOOK_BODY_VERSION,
    id: message.id,
    type: message.type,
    alerts: message.alerts.map((a) => ({ event_id: a.eventId, ...genericAlert(a) })),
  };
}

/** The updates that follow an alert already posted: said in a reply-like follow-up quoting its title. */
const FOLLOW_UPS = new Set([
  'alert.acknowledged',
  'alert.unacknowledged',
  'alert.silenced',
  'alert.unsilenced',
]);

/**
 * A follow-up's lines, escaped: the original alert's title quoted (Slack's incoming webhooks cannot post in
 * a thread — only a bot token's chat.postMessage with thread_ts can — so the update names what it follows),
 * then who did what, when, and the note.
 */
function slackFollowUp(message: OutgoingMessage, timeZone: string | null): string[] {
  const a = message.alerts[0]!;
  const lines = [`> ${escapeSlack(a.title)}`];
  const ack = a.acknowledgement;
  if (message.type === 'alert.acknowledged' && ack)
    lines.push(
      escapeSlack(`Acknowledged by ${ack.by}, ${localTime(ack.at, timeZone)}`) +
        (ack.note ? `: ${escapeSlack(ack.note)}` : ''),
    );
  else if (message.type === 'alert.unacknowledged')
    lines.push('The acknowledgement was taken back: it is open again.');
  else if (message.type === 'alert.silenced' && a.silence)
    lines.push(
      escapeSlack(
        `Silenced by ${a.silence.by} (“${a.silence.reason}”) until ${localTime(a.silence.until, timeZone)}`,
      ),
    );
  else if (message.type === 'alert.unsilenced') lines.push('Its silence ended while it is still open.');
  return lines;
}

/** Slack's incoming-webhook message: `text` (notifications, fallback) and Block Kit blocks. */
function slackBody(message: OutgoingMessage, timeZone: string | null, catalogue: AlertCatalogue): unknown {
  const subject = subjectOf(message, catalogue);
  const lines: string[] = [];
  if (message.alerts.length > 1) {
    const domains = domainsOf(message.alerts);
    lines.push(
      escapeSlack(
        `*${message.alerts.length} alerts* on: ${domains.slice(0, LISTED_ALERTS).join(', ')}` +
          (domains.length > LISTED_ALERTS ? ` … and ${domains.length - LISTED_ALERTS} more` : ''),
      ),
    );
  } else if (FOLLOW_UPS.has(message.type)) {
    lines.push(...slackFollowUp(message, timeZone));
  } else {
    const a = message.alerts[0]!;
    lines.push(
      escapeSlack(a.body),
      escapeSlack(`Account: ${a.account} · first seen ${localTime(a.firstSeen, timeZone)}`),
    );
    if (a.resolvedAt && message.type === 'alert.resolved')
      lines.push(escapeSlack(`Resolved ${localTime(a.resolvedAt, timeZone)}`));
  }
  // Slack caps a section's text at 3,000 characters and a header's at 150.
  return {
    // Notifications show `text`, which Slack reads as mrkdwn too.
    text: escapeSlack(subject),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: subject.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n').slice(0, 3000) } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Authwatch · message ${message.id}` }] },
    ],
  };
}

/** Slack's three control characters; the rest is shown as written. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Text for a Teams TextBlock, which renders Markdown: every character that can open a link, an image, an
 * autolink, emphasis or code is backslash-escaped, and so is a list or heading marker at a line's start — a
 * sending source named `[Click here](https://evil.example)` must show as written, never as a link. Even a
 * client that shows the backslashes cannot form a link: `]` and `(` are never adjacent any more.
 */
function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]()<>~|#!]/g, '\\$&')
    .replace(/^(\s*)([-+=])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

/** Text for a Teams TextBlock: escaped, each line its own paragraph (Markdown joins single line breaks). */
function teamsText(text: string): string {
  return escapeMarkdown(text).split('\n').join('\n\n');
}

/** Teams' incoming-webhook (Workflows) message: one Adaptive Card attachment. */
function teamsBody(message: OutgoingMessage, timeZone: string | null, catalogue: AlertCatalogue): unknown {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              size: 'Medium',
              weight: 'Bolder',
              wrap: true,
              text: teamsText(subjectOf(message, catalogue)),
            },
            {
              type: 'TextBlock',
              wrap: true,
              text: teamsText(plainTextOf(message, timeZone)).slice(0, 20_000),
            },
          ],
        },
      },
    ],
  };
}

/** The JSON body a webhook of this format receives. */
export function webhookBody(
  format: WebhookFormat,
  message: OutgoingMessage,
  timeZone: string | null,
  catalogue: AlertCatalogue,
): string {
  switch (format) {
    case 'slack':
      return JSON.stringify(slackBody(message, timeZone, catalogue));
    case 'teams':
      return JSON.stringify(teamsBody(message, timeZone, catalogue));
    default:
      return JSON.stringify(genericBody(message));
  }
}
