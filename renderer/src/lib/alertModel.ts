import type { Alert, AlertRuleName, Severity } from '../../../shared/bridge/results.ts';
import { isRecord } from './shape.ts';

/** What the alert inbox filters on; kept in localStorage between runs. */
export interface AlertFilter {
  rule: AlertRuleName | 'all';
  severity: Severity | 'all';
  /** Substring of the domain name (case-insensitive). */
  domain: string;
  /** Account id, or 'all'. */
  account: number | 'all';
  state: 'open' | 'resolved' | 'all';
}

export const DEFAULT_ALERT_FILTER: AlertFilter = {
  rule: 'all',
  severity: 'all',
  domain: '',
  account: 'all',
  state: 'open',
};

export const ALERT_FILTER_KEY = 'authwatch.alerts.filter';

/** Why an alert ended, in words. */
export const END_REASON_WORDS: Record<NonNullable<Alert['endReason']>, string> = {
  cause_ended: 'cause ended',
  domain_removed: 'domain removed',
  acknowledged: 'acknowledged',
  notice: 'notice',
};

/**
 * Reads a stored filter, keeping only valid values (a hand-edited or old value never breaks the page): a rule
 * must be one of `ruleNames`, the alerts the rules raise (the bridge's `alertRules`; null while they are not
 * known yet: a rule name is kept as stored).
 */
export function readAlertFilter(raw: string | null, ruleNames: ReadonlySet<string> | null): AlertFilter {
  let stored: Partial<Record<keyof AlertFilter, unknown>> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (isRecord(parsed)) stored = parsed;
  } catch {
    return { ...DEFAULT_ALERT_FILTER };
  }
  const f = { ...DEFAULT_ALERT_FILTER };
  if (
    typeof stored.rule === 'string' &&
    (stored.rule === 'all' ||
      (ruleNames ? ruleNames.has(stored.rule) : /^[a-z][a-z0-9_]{0,63}$/.test(stored.rule)))
  )
    f.rule = stored.rule;
  if (stored.severity === 'critical' || stored.severity === 'warning' || stored.severity === 'info')
    f.severity = stored.severity;
  if (typeof stored.domain === 'string') f.domain = stored.domain.slice(0, 253);
  if (typeof stored.account === 'number' && Number.isInteger(stored.account) && stored.account > 0)
    f.account = stored.account;
  if (stored.state === 'open' || stored.state === 'resolved' || stored.state === 'all')
    f.state = stored.state;
  return f;
}

/** The listIncidents arguments for a filter: the engine groups and filters, so counts are of whole incidents. */
export function incidentArgsFor(filter: AlertFilter): {
  accountId?: number;
  state: AlertFilter['state'];
  rule?: AlertRuleName;
  severity?: Severity;
  domain?: string;
} {
  const domain = filter.domain.trim();
  return {
    ...(filter.account !== 'all' ? { accountId: filter.account } : {}),
    state: filter.state,
    ...(filter.rule !== 'all' ? { rule: filter.rule } : {}),
    ...(filter.severity !== 'all' ? { severity: filter.severity } : {}),
    ...(domain !== '' ? { domain } : {}),
  };
}

/** "1 open incident", "3 incidents": a count with its noun, singular or plural. */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${new Intl.NumberFormat().format(n)} ${n === 1 ? noun : plural}`;
}

export type Tone = 'good' | 'warn' | 'bad' | 'info' | 'neutral';

/** The tone of a severity (badges always add the word). */
export function severityTone(severity: Severity): Tone {
  return severity === 'critical' ? 'bad' : severity === 'warning' ? 'warn' : 'info';
}

/** Where an alert stands, as a badge: tone, short word and, when useful, a longer sentence. */
export interface AlertState {
  key: 'open' | 'acknowledged' | 'snoozed' | 'muted' | 'ended' | 'domain_removed';
  tone: Tone;
  label: string;
  /** "Snoozed until …" and the like; the exact time is given separately. */
  until: string | null;
}

/** The state of an alert at `now`. */
export function alertState(alert: Alert, now = Date.now()): AlertState {
  if (alert.resolvedAt !== null) {
    const reason = alert.endReason ? END_REASON_WORDS[alert.endReason] : 'resolved';
    return { key: 'ended', tone: 'good', label: `ended: ${reason}`, until: null };
  }
  if (alert.endReason === 'domain_removed')
    return { key: 'domain_removed', tone: 'neutral', label: 'ended: domain removed', until: null };
  if (alert.acknowledgedAt !== null)
    return { key: 'acknowledged', tone: 'neutral', label: 'acknowledged', until: null };
  if (alert.snoozedUntil !== null && Date.parse(alert.snoozedUntil) > now)
    return { key: 'snoozed', tone: 'info', label: 'snoozed', until: alert.snoozedUntil };
  if (alert.suppressed === 'muted') return { key: 'muted', tone: 'neutral', label: 'muted', until: null };
  return { key: 'open', tone: severityTone(alert.severity), label: 'open', until: null };
}

/** True when acknowledging would change the alert (open and not acknowledged yet). */
export function canAcknowledge(alert: Alert): boolean {
  return alert.resolvedAt === null && alert.acknowledgedAt === null;
}

/** Snooze choices and the instant each means from `now`. */
export const SNOOZE_CHOICES = [
  { key: '1h', label: '1 hour', ms: 3_600_000 },
  { key: '8h', label: '8 hours', ms: 8 * 3_600_000 },
  { key: '24h', label: '24 hours', ms: 24 * 3_600_000 },
  { key: '1w', label: '1 week', ms: 7 * 86_400_000 },
] as const;

/** The ISO instant a snooze of `ms` from `now` ends. */
export function snoozeUntil(ms: number, now = Date.now()): string {
  return new Date(now + ms).toISOString();
}

/** One step of an episode: raised → notified → acknowledged → resolved. */
export interface TimelineStep {
  key: 'raised' | 'notified' | 'acknowledged' | 'snoozed' | 'resolved' | 'ended';
  label: string;
  at: string | null;
  done: boolean;
}

/** The episode's timeline, in order, with the steps still to come marked not done. */
export function episodeTimeline(alert: Alert): TimelineStep[] {
  const steps: TimelineStep[] = [
    { key: 'raised', label: 'Raised', at: alert.firstSeenAt, done: true },
    {
      key: 'notified',
      label:
        alert.suppressed === 'muted'
          ? 'Not notified (domain muted)'
          : alert.deliveredAt === null && alert.snoozedUntil !== null && alert.resolvedAt === null
            ? 'Notified again when the snooze ends'
            : 'Notified',
      at: alert.deliveredAt,
      done: alert.deliveredAt !== null,
    },
  ];
  if (alert.snoozedUntil !== null)
    steps.push({ key: 'snoozed', label: 'Snoozed until', at: alert.snoozedUntil, done: true });
  steps.push({
    key: 'acknowledged',
    label: 'Acknowledged',
    at: alert.acknowledgedAt,
    done: alert.acknowledgedAt !== null,
  });
  if (alert.resolvedAt === null && alert.endReason === 'domain_removed')
    steps.push({ key: 'ended', label: 'Domain removed from the account', at: alert.endedAt, done: true });
  steps.push({
    key: 'resolved',
    label:
      alert.resolvedAt !== null && alert.endReason && alert.endReason !== 'acknowledged'
        ? `Resolved (${END_REASON_WORDS[alert.endReason]})`
        : 'Resolved',
    at: alert.resolvedAt,
    done: alert.resolvedAt !== null,
  });
  return steps;
}

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

const DETAIL_LABELS: Record<string, string> = {
  scoreBefore: 'Score before',
  scoreNow: 'Score now',
  floor: 'Alert floor',
  protocol: 'Protocol',
  disconnectedAt: 'Disconnected at',
  restoredAt: 'Restored at',
  scannedAt: 'Scanned',
  source: 'Seen by',
  sourceName: 'Source',
  totalCount: 'Messages',
  scope: 'Missing scope',
  passingBefore: 'Protocols passing before',
  passingNow: 'Protocols passing now',
  resultBefore: 'Health before',
  resultNow: 'Health now',
  episodeId: 'Episode of alert',
  record: 'Record',
  recordBefore: 'Record before',
};

/** The alert's details as label/value pairs ("Score before" 8.2), values as text; times are flagged. */
export function detailEntries(details: Record<string, unknown>): {
  key: string;
  label: string;
  value: string;
  isTime: boolean;
}[] {
  return Object.entries(details)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([key, v]) => {
      const value =
        typeof v === 'string' ? v : typeof v === 'number' ? numberFormat.format(v) : JSON.stringify(v);
      const isTime = typeof v === 'string' && /At$/.test(key) && Number.isFinite(Date.parse(v));
      const label =
        DETAIL_LABELS[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
      return { key, label, value, isTime };
    });
}
