import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import { alertWords } from '../alerts/alertWords.ts';
import { notificationText, type NotifiedAlert } from '../alerts/notificationWords.ts';
import { domainsOf, topSeverity, type MessageAlert, type OutgoingMessage } from './message.ts';

/** How many alerts a grouped message lists one by one; the rest are counted ("and 150 more"). */
export const LISTED_ALERTS = 50;

const SEVERITY_WORD = { critical: 'Critical', warning: 'Warning', info: 'Info' } as const;

/** A time as people read it where they are: "26 Nov 2026, 07:12:33 UTC" (the zone always shown). */
export function localTime(iso: string, timeZone: string | null): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'long',
    ...(timeZone ? { timeZone } : {}),
  }).format(at);
}

/** The alert as the status model words it (its protocol is all of its details the words read). */
function worded(a: MessageAlert): NotifiedAlert {
  return {
    fqdn: a.domain,
    rule: a.rule,
    title: a.title,
    body: a.body,
    details: a.protocol ? { protocol: a.protocol } : {},
    firstSeenAt: a.firstSeen,
  };
}

/** The tag of an update's subject (a raised alert's is its severity). */
const UPDATE_TAG: Partial<Record<OutgoingMessage['type'], string>> = {
  'alert.resolved': 'Resolved',
  'alert.acknowledged': 'Acknowledged',
  'alert.unacknowledged': 'Acknowledgement withdrawn',
  'alert.escalated': 'Escalated',
  'alert.repeated': 'Still open',
  'alert.silenced': 'Silenced',
  'alert.unsilenced': 'Silence ended',
};

/** The verb of a grouped message ("3 alerts resolved …"). */
function verbOf(type: OutgoingMessage['type']): string {
  if (type === 'alert.repeated') return 'still open';
  if (type === 'alert.unsilenced') return 'no longer silenced';
  return type === 'alert.raised' ? 'raised' : (UPDATE_TAG[type]?.toLowerCase() ?? 'raised');
}

/**
 * The subject line (mail) or headline (chat): the domain and what happened, in one line, in the words the
 * app's header, row and desktop notification use ("acme.example — SPF disconnected").
 */
export function subjectOf(message: OutgoingMessage, catalogue: AlertCatalogue): string {
  const { alerts, type } = message;
  if (type === 'test') return 'Authwatch: test message';
  const first = alerts[0]!;
  const tag = UPDATE_TAG[type] ?? SEVERITY_WORD[topSeverity(alerts)];
  if (alerts.length === 1) return `[${tag}] ${notificationText(worded(first), catalogue, () => '').title}`;
  const domains = domainsOf(alerts);
  const named = domains.slice(0, 3).join(', ') + (domains.length > 3 ? `, +${domains.length - 3} more` : '');
  const sameWords = new Set(alerts.map((a) => alertWords(worded(a), catalogue))).size === 1;
  const what = sameWords ? alertWords(worded(first), catalogue) : `${alerts.length} alerts`;
  const where = domains.length === 1 ? domains[0]! : `${domains.length} domains (${named})`;
  return `[${tag}] ${what} on ${where}`;
}

/** One alert's lines of plain text. */
function alertLines(a: MessageAlert, type: OutgoingMessage['type'], timeZone: string | null): string[] {
  const lines = [`${SEVERITY_WORD[a.severity]}: ${a.title}`, a.body];
  lines.push(
    `Account: ${a.account}${a.domain ? ` · Domain: ${a.domain}` : ''}${a.protocol ? ` · Protocol: ${a.protocol}` : ''}`,
  );
  lines.push(`First seen: ${localTime(a.firstSeen, timeZone)}`);
  if (type === 'alert.resolved' && a.resolvedAt) lines.push(`Resolved: ${localTime(a.resolvedAt, timeZone)}`);
  if (a.acknowledgement)
    lines.push(
      `Acknowledged by ${a.acknowledgement.by}, ${localTime(a.acknowledgement.at, timeZone)}` +
        (a.acknowledgement.note ? `: ${a.acknowledgement.note}` : ''),
    );
  if (a.silence)
    lines.push(
      `Silenced by ${a.silence.by} (“${a.silence.reason}”) until ${localTime(a.silence.until, timeZone)}`,
    );
  return lines;
}

/** The plain-text body: no links (a desktop app has no public address), times local with their zone. */
export function plainTextOf(message: OutgoingMessage, timeZone: string | null): string {
  const { alerts, type } = message;
  const out: string[] = [];
  if (alerts.length > 1) {
    const verb = verbOf(type);
    out.push(`${alerts.length} alerts ${verb} in one sync pass, on these domains:`, '');
    out.push(
      ...domainsOf(alerts)
        .slice(0, LISTED_ALERTS)
        .map((d) => `  - ${d}`),
    );
    const more = domainsOf(alerts).length - LISTED_ALERTS;
    if (more > 0) out.push(`  … and ${more} more`);
    out.push('');
  }
  for (const a of alerts.slice(0, LISTED_ALERTS)) out.push(...alertLines(a, type, timeZone), '');
  if (alerts.length > LISTED_ALERTS) out.push(`… and ${alerts.length - LISTED_ALERTS} more alerts.`, '');
  out.push('Open Authwatch for the details.', `Message id: ${message.id}`);
  return out.join('\n');
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The HTML body: the same content as the text part, as simple inline-styled HTML without links. */
export function htmlOf(message: OutgoingMessage, timeZone: string | null, catalogue: AlertCatalogue): string {
  const { alerts, type } = message;
  const parts: string[] = [
    `<div style="font-family:system-ui,sans-serif;font-size:14px;color:#1a1a1a">`,
    `<h2 style="font-size:17px;margin:0 0 12px">${escapeHtml(subjectOf(message, catalogue))}</h2>`,
  ];
  if (alerts.length > 1) {
    const domains = domainsOf(alerts);
    parts.push(
      `<p>${alerts.length} alerts ${verbOf(type)} in one sync pass, on ${domains.length} domains:</p>`,
      `<ul>${domains
        .slice(0, LISTED_ALERTS)
        .map((d) => `<li>${escapeHtml(d)}</li>`)
        .join(
          '',
        )}${domains.length > LISTED_ALERTS ? `<li>… and ${domains.length - LISTED_ALERTS} more</li>` : ''}</ul>`,
    );
  }
  for (const a of alerts.slice(0, LISTED_ALERTS)) {
    const rows = [
      ['Severity', SEVERITY_WORD[a.severity]],
      ['Account', a.account],
      ...(a.domain ? [['Domain', a.domain]] : []),
      ...(a.protocol ? [['Protocol', a.protocol]] : []),
      ['First seen', localTime(a.firstSeen, timeZone)],
      ...(type === 'alert.resolved' && a.resolvedAt ? [['Resolved', localTime(a.resolvedAt, timeZone)]] : []),
      ...(a.acknowledgement
        ? [['Acknowledged', `${a.acknowledgement.by}, ${localTime(a.acknowledgement.at, timeZone)}`]]
        : []),
      ...(a.acknowledgement?.note ? [['Note', a.acknowledgement.note]] : []),
      ...(a.silence
        ? [
            [
              'Silenced',
              `by ${a.silence.by} (“${a.silence.reason}”) until ${localTime(a.silence.until, timeZone)}`,
            ],
          ]
        : []),
    ];
    parts.push(
      `<h3 style="font-size:15px;margin:16px 0 4px">${escapeHtml(a.title)}</h3>`,
      `<p style="margin:0 0 6px">${escapeHtml(a.body)}</p>`,
      `<table style="border-collapse:collapse">${rows
        .map(
          ([k, v]) =>
            `<tr><td style="padding:1px 12px 1px 0;color:#555">${escapeHtml(k!)}</td><td>${escapeHtml(v!)}</td></tr>`,
        )
        .join('')}</table>`,
    );
  }
  if (alerts.length > LISTED_ALERTS) parts.push(`<p>… and ${alerts.length - LISTED_ALERTS} more alerts.</p>`);
  parts.push(
    `<p style="color:#555;margin-top:16px">Open Authwatch for the details. Message id: ${escapeHtml(message.id)}</p>`,
    '</div>',
  );
  return parts.join('\n');
}
