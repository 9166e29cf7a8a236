import type { IncidentOf } from '../../../shared/bridge/incidents.ts';
import type { Alert } from '../../../shared/bridge/results.ts';
import { isProtocol } from '../signals/primitives.ts';
import { PROTOCOL_LABELS } from './protocolReading.ts';
import type { AlertRuleName, Severity } from './types.ts';

/**
 * Alerts that belong together, shown as one incident. An admin who loses SPF and DMARC in one DNS change
 * wants one thing to look at ("DMARC and SPF disconnected"), not two unrelated rows; a registered threat and
 * the score drop it caused are one story. Grouping is computed from the alerts themselves (no stored state),
 * so every alert ever raised groups the same way after a restart. The shape is the bridge's (IncidentOf).
 */
type MirrorIncident = IncidentOf<Alert>;

/**
 * Alerts of one domain first seen within this span of the incident's FIRST alert are one incident: the
 * writes of one sync pass (the health scan, the DNS events, the failed sources of one domain) land within
 * minutes, and one DNS change seen by two signals lands within one pass. Counted from the first alert, not
 * the latest, so a domain that keeps alerting every few minutes does not grow one endless incident.
 */
const PASS_WINDOW_MS = 15 * 60_000;

/**
 * A score drop or a health regression is a consequence: it joins the domain's incident that was still open
 * when it was raised (a threat found at 10:00 and the score it dragged down at 13:00), within this span.
 */
const CONSEQUENCE_WINDOW_MS = 24 * 3_600_000;

/**
 * A consequence can be seen before its cause (the score drop derived from a health poll, the threat in the
 * failed sources read a pass later): a cause raised within this span of an open incident made only of
 * consequences joins it.
 */
const CAUSE_WINDOW_MS = 60 * 60_000;

const CONSEQUENCES: ReadonlySet<AlertRuleName> = new Set(['score_dropped', 'health_regressed']);
const CAUSES: ReadonlySet<AlertRuleName> = new Set(['threat_source_appeared', 'protocol_disconnected']);
const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

interface Building {
  incident: MirrorIncident;
  /** First-seen time of its first alert (ms). */
  first: number;
  /** Latest first-seen time of its alerts (ms). */
  latest: number;
}

const t = (iso: string) => Date.parse(iso);

/** True when some alert of the incident was unresolved at `at` (ms). */
function openAt(incident: MirrorIncident, at: number): boolean {
  return incident.alerts.some(
    (a) => t(a.firstSeenAt) <= at && (a.resolvedAt === null || t(a.resolvedAt) >= at),
  );
}

/** When the DNS change a disconnect alert is about happened (ms), or null. */
function changedAt(alert: Alert): number | null {
  if (alert.rule !== 'protocol_disconnected') return null;
  const at = alert.details.disconnectedAt;
  const ms = typeof at === 'string' ? t(at) : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Why `alert` belongs to the open-or-recent incident `candidate` of its domain, or null: the same pass, a
 * consequence of it, the same DNS change (two records that disappeared together, whenever each was seen),
 * or the cause of the consequences it holds.
 */
function link(
  candidate: Building,
  alert: Alert,
  at: number,
): 'pass' | 'consequence' | 'change' | 'cause' | null {
  if (at - candidate.first <= PASS_WINDOW_MS) return 'pass';
  if (!openAt(candidate.incident, at)) return null;
  if (CONSEQUENCES.has(alert.rule) && at - candidate.latest <= CONSEQUENCE_WINDOW_MS) return 'consequence';
  const change = changedAt(alert);
  // Measured from the incident's first DNS change, so changes a few minutes apart do not chain.
  const firstChange = candidate.incident.alerts
    .map(changedAt)
    .reduce<number | null>((m, c) => (c === null ? m : m === null ? c : Math.min(m, c)), null);
  if (change !== null && firstChange !== null && Math.abs(change - firstChange) <= PASS_WINDOW_MS)
    return 'change';
  if (
    CAUSES.has(alert.rule) &&
    at - candidate.latest <= CAUSE_WINDOW_MS &&
    candidate.incident.alerts.every((a) => CONSEQUENCES.has(a.rule))
  )
    return 'cause';
  return null;
}

/** Groups alerts into incidents (any order in; incidents out in inbox order: see sortIncidents). */
export function groupIncidents(alerts: readonly Alert[]): MirrorIncident[] {
  const ordered = [...alerts].sort((a, b) => t(a.firstSeenAt) - t(b.firstSeenAt) || a.id - b.id);
  const byAlert = new Map<number, Building>();
  const latestByScope = new Map<string, Building>();
  const all: Building[] = [];
  for (const alert of ordered) {
    const at = t(alert.firstSeenAt);
    const scope = `${alert.accountId}|${alert.domainId ?? `account:${alert.fqdn ?? ''}`}`;
    const episode = alert.rule === 'protocol_restored' ? alert.details.episodeId : undefined;
    const candidate = latestByScope.get(scope);
    // A repair belongs with the outage it ends (and does not make that old incident the one new alerts join).
    const repaired = typeof episode === 'number' ? byAlert.get(episode) : undefined;
    let home: Building | undefined = repaired;
    if (!home && candidate && link(candidate, alert, at) !== null) home = candidate;
    if (!home) {
      home = {
        first: at,
        latest: at,
        incident: {
          id: alert.id,
          accountId: alert.accountId,
          domainId: alert.domainId,
          fqdn: alert.fqdn,
          severity: alert.severity,
          open: false,
          title: '',
          firstSeenAt: alert.firstSeenAt,
          lastSeenAt: alert.lastSeenAt,
          alerts: [],
        },
      };
      all.push(home);
    }
    home.incident.alerts.push(alert);
    byAlert.set(alert.id, home);
    if (home !== repaired) {
      home.latest = Math.max(home.latest, at);
      latestByScope.set(scope, home);
    }
  }
  return sortIncidents(all.map((b) => finish(b.incident)));
}

function finish(incident: MirrorIncident): MirrorIncident {
  const alerts = [...incident.alerts].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      t(a.firstSeenAt) - t(b.firstSeenAt) ||
      a.id - b.id,
  );
  const open = alerts.filter((a) => a.resolvedAt === null);
  const loudest = (list: Alert[]) =>
    list.reduce<Severity>((s, a) => (SEVERITY_RANK[a.severity] < SEVERITY_RANK[s] ? a.severity : s), 'info');
  return {
    ...incident,
    alerts,
    open: open.length > 0,
    severity: loudest(open.length > 0 ? open : alerts),
    title: incidentTitle(alerts),
    lastSeenAt: alerts.reduce((m, a) => (t(a.lastSeenAt) > t(m) ? a.lastSeenAt : m), incident.lastSeenAt),
  };
}

/** Inbox order: open incidents first, criticals first among them, then the most recent activity first. */
function sortIncidents(incidents: MirrorIncident[]): MirrorIncident[] {
  return incidents.sort(
    (a, b) =>
      Number(b.open) - Number(a.open) ||
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      t(b.lastSeenAt) - t(a.lastSeenAt) ||
      b.id - a.id,
  );
}

function protocolOf(alert: Alert): string | null {
  const p = alert.details.protocol;
  return typeof p === 'string' && isProtocol(p) ? PROTOCOL_LABELS[p] : null;
}

function list(words: string[]): string {
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function score(value: unknown): string | null {
  return typeof value === 'number' ? value.toFixed(1) : null;
}

/**
 * An incident's title. One alert: its own title. Several: one phrase per kind, loudest first —
 * "DMARC and SPF disconnected", "registered threat evil.example sending", "score dropped from 8.1 to 6.9".
 */
export function incidentTitle(alerts: readonly Alert[]): string {
  if (alerts.length === 1) return alerts[0]!.title;
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const alert of alerts) {
    if (seen.has(alert.rule)) continue;
    seen.add(alert.rule);
    const same = alerts.filter((a) => a.rule === alert.rule);
    const protocols = [...new Set(same.map(protocolOf).filter((p): p is string => p !== null))];
    switch (alert.rule) {
      case 'protocol_disconnected':
        parts.push(`${list(protocols)} disconnected`);
        break;
      case 'protocol_restored':
        parts.push(`${list(protocols)} connected again`);
        break;
      case 'threat_source_appeared': {
        const names = same.map((a) => a.details.sourceName).filter((n): n is string => typeof n === 'string');
        parts.push(
          names.length === 1
            ? `registered threat ${names[0]} sending`
            : `${same.length} registered threats sending`,
        );
        break;
      }
      case 'score_dropped': {
        const last = same[same.length - 1]!;
        const before = score(last.details.scoreBefore);
        const now = score(last.details.scoreNow);
        parts.push(before && now ? `score dropped from ${before} to ${now}` : 'score dropped');
        break;
      }
      case 'health_regressed':
        parts.push('health regressed');
        break;
      default:
        parts.push(alert.title);
    }
  }
  const text = parts.filter((p) => p.trim() !== '').join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What the inbox filters incidents on (every field optional). */
export interface IncidentFilter {
  state?: 'open' | 'resolved' | 'all';
  rule?: AlertRuleName;
  severity?: Severity;
  /** Substring of the domain name, case-insensitive. */
  domain?: string;
}

/**
 * The incidents a filter keeps: open or resolved as a whole, of this severity, with at least one alert of
 * this rule, on a domain whose name contains the text.
 */
export function filterIncidents(
  incidents: readonly MirrorIncident[],
  filter: IncidentFilter,
): MirrorIncident[] {
  const domain = (filter.domain ?? '').trim().toLowerCase();
  const state = filter.state ?? 'open';
  return incidents.filter(
    (i) =>
      (state === 'all' || (state === 'open') === i.open) &&
      (filter.severity === undefined || i.severity === filter.severity) &&
      (filter.rule === undefined || i.alerts.some((a) => a.rule === filter.rule)) &&
      (domain === '' || (i.fqdn ?? '').toLowerCase().includes(domain)),
  );
}
