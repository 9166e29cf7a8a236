import type { Account, Mirror } from '../mirror/types.ts';
import { escapeHtml, localTime } from './messageText.ts';
import { PROTOCOLS } from '../signals/primitives.ts';

const WEEK_MS = 7 * 86_400_000;

/** One account's week, as the digest tells it. */
export interface DigestContent {
  account: string;
  from: string;
  to: string;
  scoreChanges: { domain: string; before: number; after: number }[];
  statusChanges: { domain: string; protocol: string; now: 'passing' | 'failing' }[];
  /** Senders first reported this week (the domain's first report ever is a baseline, not news). */
  newSenders: { domain: string; source: string; messages: number; failing: boolean }[];
  failingSenders: { domain: string; source: string; messages: number; threat: boolean }[];
  dnsChanges: { domain: string; record: string; action: string; at: string }[];
  /** Alerts raised or ended this week. */
  alertsOpened: { domain: string | null; title: string; severity: string; resolved: boolean }[];
}

/** Reads an account's seven days up to `now` from the mirror (a late digest tells the week that was due). */
export function digestContent(mirror: Mirror, account: Account, now: number): DigestContent {
  const since = now - WEEK_MS;
  const sinceIso = new Date(since).toISOString();
  const nowIso = new Date(now).toISOString();
  const content: DigestContent = {
    account: account.label,
    from: sinceIso,
    to: nowIso,
    scoreChanges: [],
    statusChanges: [],
    newSenders: [],
    failingSenders: [],
    dnsChanges: [],
    alertsOpened: [],
  };
  for (const d of mirror.listDomains(account.id)) {
    const q = { accountId: account.id, domainId: d.domainId, since, until: now };
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
    content.newSenders.push(...newSenders(mirror, account.id, d, sinceIso, nowIso));
  }
  content.failingSenders.sort((a, b) => b.messages - a.messages);
  content.newSenders.sort((a, b) => b.messages - a.messages);
  // Every alert raised or ended in the week, however many (the newest 10,000 of a busy week left out its
  // first alerts); the filter in SQL keeps a long history out of memory.
  for (const a of mirror.listAlerts({ accountId: account.id, since: sinceIso, limit: 'all' })) {
    const raised = a.firstSeenAt >= sinceIso && a.firstSeenAt <= nowIso;
    const ended = a.resolvedAt !== null && a.resolvedAt >= sinceIso && a.resolvedAt <= nowIso;
    if (raised || ended)
      content.alertsOpened.push({
        domain: a.fqdn,
        title: a.title,
        severity: a.severity,
        resolved: a.resolvedAt !== null && a.resolvedAt <= nowIso,
      });
  }
  return content;
}

/** Senders of a domain whose first poll fell in the week, when the domain had been polled before it. */
function newSenders(
  mirror: Mirror,
  accountId: number,
  d: { domainId: number; fqdn: string },
  since: string,
  until: string,
): DigestContent['newSenders'] {
  const senders = mirror.domainSenders(accountId, d.domainId);
  const firstPolls = senders.map((s) => ({
    s,
    first: mirror.senderHistory(accountId, d.domainId, s.name)[0],
  }));
  const polledBefore = firstPolls.some((p) => p.first !== undefined && p.first.at < since);
  if (!polledBefore) return [];
  return firstPolls
    .filter((p) => p.first !== undefined && p.first.at >= since && p.first.at <= until)
    .map(({ s }) => ({ domain: d.fqdn, source: s.name, messages: s.total ?? 0, failing: s.failing }));
}

/** The digest's sections as lines of text (HTML-escaped in digestHtml). */
function sections(
  c: DigestContent,
  timeZone: string | null,
): { title: string; rows: string[]; empty: string }[] {
  return [
    {
      title: 'Score changes',
      rows: c.scoreChanges.map((s) => `${s.domain}: ${s.before.toFixed(1)} → ${s.after.toFixed(1)}`),
      empty: 'No score changed.',
    },
    {
      title: 'Protocols that changed',
      rows: c.statusChanges.map((s) => `${s.domain}: ${s.protocol.toUpperCase()} now ${s.now}`),
      empty: 'No protocol changed.',
    },
    {
      title: 'New senders',
      rows: c.newSenders
        .slice(0, 50)
        .map(
          (s) =>
            `${s.domain}: ${s.source} — ${s.messages.toLocaleString('en')} messages${s.failing ? ', failing' : ''}`,
        ),
      empty: 'No new senders.',
    },
    {
      title: 'Failing senders',
      rows: c.failingSenders
        .slice(0, 50)
        .map(
          (s) =>
            `${s.domain}: ${s.source} — ${s.messages.toLocaleString('en')} messages${s.threat ? ' (registered threat)' : ''}`,
        ),
      empty: 'No failing senders reported.',
    },
    {
      title: 'DNS changes',
      rows: c.dnsChanges.map(
        (d) => `${d.domain}: ${d.record.toUpperCase()} ${d.action} (${localTime(d.at, timeZone)})`,
      ),
      empty: 'No DNS changes.',
    },
    {
      title: 'Alerts of the week',
      rows: c.alertsOpened.map((a) => `[${a.severity}] ${a.title} — ${a.resolved ? 'closed' : 'open'}`),
      empty: 'No alerts this week.',
    },
  ];
}

/** The subject of the mailed digest: the account, the week's end, and what needs a look. */
export function digestSubject(c: DigestContent, timeZone: string | null): string {
  const open = c.alertsOpened.filter((a) => !a.resolved).length;
  const day = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    ...(timeZone ? { timeZone } : {}),
  }).format(Date.parse(c.to));
  const what =
    open > 0
      ? `${open} open alert${open === 1 ? '' : 's'}`
      : c.alertsOpened.length > 0
        ? 'alerts closed'
        : 'no alerts';
  return `Authwatch weekly digest — ${c.account}, week to ${day}: ${what}`;
}

/** The digest as plain text (the mail's text part): the same sections, no links. */
export function digestText(c: DigestContent, timeZone: string | null): string {
  const out = [
    `Authwatch weekly digest — ${c.account}`,
    `${localTime(c.from, timeZone)} to ${localTime(c.to, timeZone)}`,
    '',
  ];
  for (const s of sections(c, timeZone)) {
    out.push(s.title, ...(s.rows.length ? s.rows.map((r) => `  - ${r}`) : [`  ${s.empty}`]), '');
  }
  out.push('Open Authwatch for the details.');
  return out.join('\n');
}

function section(title: string, rows: string[], empty: string): string {
  return `<h2 style="font-size:16px;margin:18px 0 6px">${escapeHtml(title)}</h2>${
    rows.length
      ? `<ul>${rows.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>`
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
    ...sections(c, timeZone).map((s) => section(s.title, s.rows, s.empty)),
    '</body></html>',
  ].join('\n');
}
