import type { Account, Mirror } from '../mirror/types.ts';
import { escapeHtml, localTime } from './messageText.ts';

const WEEK_MS = 7 * 86_400_000;
const PROTOCOLS = ['dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi'] as const;

/** One account's week, as the digest tells it. */
export interface DigestContent {
  account: string;
  from: string;
  to: string;
  scoreChanges: { domain: string; before: number; after: number }[];
  statusChanges: { domain: string; protocol: string; now: 'passing' | 'failing' }[];
  failingSenders: { domain: string; source: string; messages: number; threat: boolean }[];
  dnsChanges: { domain: string; record: string; action: string; at: string }[];
  alertsOpened: { domain: string | null; title: string; severity: string; resolved: boolean }[];
}

/** Reads an account's last seven days from the mirror. */
export function digestContent(mirror: Mirror, account: Account, now: number): DigestContent {
  const since = now - WEEK_MS;
  const content: DigestContent = {
    account: account.label,
    from: new Date(since).toISOString(),
    to: new Date(now).toISOString(),
    scoreChanges: [],
    statusChanges: [],
    failingSenders: [],
    dnsChanges: [],
    alertsOpened: [],
  };
  for (const d of mirror.listDomains(account.id)) {
    const q = { accountId: account.id, domainId: d.domainId, since };
    // Measured scores only: derived points (estimated from health) would report changes nobody measured.
    const scores = mirror.history('score', q).filter((p) => p.kind === 'measured');
    const first = scores[0];
    const last = scores.at(-1);
    if (first && last && first.score !== last.score)
      content.scoreChanges.push({ domain: d.fqdn, before: first.score, after: last.score });
    const health = mirror.history('health', q);
    const h0 = health[0];
    const h1 = health.at(-1);
    if (h0 && h1)
      for (const p of PROTOCOLS) {
        const a = h0.protocols[p];
        const b = h1.protocols[p];
        if (a !== undefined && b !== undefined && a !== b)
          content.statusChanges.push({ domain: d.fqdn, protocol: p, now: b ? 'passing' : 'failing' });
      }
    for (const e of mirror.history('dns_events', q))
      content.dnsChanges.push({ domain: d.fqdn, record: e.recordType, action: e.action, at: e.occurredAt });
    const sources = mirror.domainDetail(account.id, d.domainId)?.failedSources?.sources ?? [];
    for (const s of sources)
      content.failingSenders.push({
        domain: d.fqdn,
        source: String(s.source_name ?? 'unknown'),
        messages: Number(s.total_count ?? 0),
        threat: s.is_registered_threat === true,
      });
  }
  content.failingSenders.sort((a, b) => b.messages - a.messages);
  for (const a of mirror.listAlerts({ accountId: account.id, limit: 10_000 }))
    if (Date.parse(a.firstSeenAt) >= since)
      content.alertsOpened.push({
        domain: a.fqdn,
        title: a.title,
        severity: a.severity,
        resolved: a.resolvedAt !== null,
      });
  return content;
}

function section(title: string, rows: string[], empty: string): string {
  return `<h2 style="font-size:16px;margin:18px 0 6px">${escapeHtml(title)}</h2>${
    rows.length
      ? `<ul>${rows.map((r) => `<li>${r}</li>`).join('')}</ul>`
      : `<p style="color:#555">${escapeHtml(empty)}</p>`
  }`;
}

/** The digest as HTML, link-free, times local with their zone. */
export function digestHtml(c: DigestContent, timeZone: string | null): string {
  const e = escapeHtml;
  return [
    '<!doctype html><html><head><meta charset="utf-8"><title>Authwatch weekly digest</title></head>',
    '<body style="font-family:system-ui,sans-serif;font-size:14px;color:#1a1a1a;max-width:760px">',
    `<h1 style="font-size:19px">Authwatch weekly digest — ${e(c.account)}</h1>`,
    `<p>${e(localTime(c.from, timeZone))} to ${e(localTime(c.to, timeZone))}</p>`,
    section(
      'Score changes',
      c.scoreChanges.map((s) => `${e(s.domain)}: ${s.before.toFixed(1)} → ${s.after.toFixed(1)}`),
      'No score changed.',
    ),
    section(
      'Protocols that changed',
      c.statusChanges.map((s) => `${e(s.domain)}: ${e(s.protocol.toUpperCase())} now ${s.now}`),
      'No protocol changed.',
    ),
    section(
      'Failing senders',
      c.failingSenders
        .slice(0, 50)
        .map(
          (s) =>
            `${e(s.domain)}: ${e(s.source)} — ${s.messages.toLocaleString('en')} messages${s.threat ? ' (registered threat)' : ''}`,
        ),
      'No failing senders reported.',
    ),
    section(
      'DNS changes',
      c.dnsChanges.map(
        (d) =>
          `${e(d.domain)}: ${e(d.record.toUpperCase())} ${e(d.action)} (${e(localTime(d.at, timeZone))})`,
      ),
      'No DNS changes.',
    ),
    section(
      'Alerts of the week',
      c.alertsOpened.map((a) => `[${e(a.severity)}] ${e(a.title)} — ${a.resolved ? 'closed' : 'open'}`),
      'No alerts this week.',
    ),
    '</body></html>',
  ].join('\n');
}
