/**
 * Matches each change of the day with the alert that told the user about it, from the alerts a poller's
 * mirror holds: a removed record with its protocol_disconnected, a restored one with protocol_restored, a
 * threat with its threat_source_appeared. The latency is the alert's first-seen instant (virtual time, as
 * the mirror recorded it) minus the change's instant; a change without such an alert was missed.
 *
 * Every removal also costs the domain 2 points of security score: the score_dropped alert that followed it
 * is measured on its own ('score drop'), outside the change figures (a poller that never reads the score
 * cannot tell it, and is not judged on it).
 */
import type { Alert, Mirror } from '../../../main/core/mirror/types.ts';
import type { Change } from './changeStream.ts';

/** The kinds of alert the day scores, with the score drop measured beside them. */
export type AlertKind = Change['kind'] | 'score_drop';
export const ALERT_KINDS: readonly AlertKind[] = ['removed', 'restored', 'threat', 'score_drop'];

/** Latency figures of one poller over the day. */
export interface LatencyFigures {
  changes: number;
  missed: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  /** Latencies in ms of the changes seen, in change order. */
  samples: number[];
  /** Per kind: the latencies seen and how many of that kind no alert told of. */
  byKind: Record<AlertKind, { samples: number[]; missed: number }>;
  /** The changes no alert told of. */
  unmatched: Change[];
  /**
   * Why those went untold: `open` — an alert of the same kind for the same record (or source) was raised
   * before the change and had not ended when it came, so the user was already being told of that state
   * (an episode is one alert, not one per flap); `untold` — nothing about it at all.
   */
  missedWhy: { open: number; untold: number };
}

const RULE: Record<AlertKind, Alert['rule']> = {
  removed: 'protocol_disconnected',
  restored: 'protocol_restored',
  threat: 'threat_source_appeared',
  score_drop: 'score_dropped',
};

function matches(kind: AlertKind, change: Change, alert: Alert, fqdn: string): boolean {
  if (alert.rule !== RULE[kind] || alert.fqdn !== fqdn) return false;
  if (kind === 'score_drop') return true;
  if (change.kind === 'threat') return alert.details.sourceName === change.ip;
  return alert.details.protocol === change.record;
}

/** The p-th percentile (0–100) by nearest rank; null for no samples. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Latency of every change in `mirror`'s alerts of `accountId`. */
export function changeLatency(
  mirror: Mirror,
  accountId: number,
  changes: readonly Change[],
  fqdnOf: (domainIndex: number) => string,
): LatencyFigures {
  const alerts = mirror
    .listAlerts({ accountId, limit: 'all' })
    .sort((a, b) => Date.parse(a.firstSeenAt) - Date.parse(b.firstSeenAt));
  const used = new Set<number>();
  const samples: number[] = [];
  const unmatched: Change[] = [];
  const byKind = Object.fromEntries(
    ALERT_KINDS.map((k) => [k, { samples: [] as number[], missed: 0 }]),
  ) as Record<AlertKind, { samples: number[]; missed: number }>;
  const find = (kind: AlertKind, change: Change, fqdn: string) =>
    alerts.find(
      (a) => !used.has(a.id) && Date.parse(a.firstSeenAt) >= change.at && matches(kind, change, a, fqdn),
    );
  for (const change of changes) {
    const fqdn = fqdnOf(change.domainIndex);
    const alert = find(change.kind, change, fqdn);
    if (alert) {
      used.add(alert.id);
      const ms = Date.parse(alert.firstSeenAt) - change.at;
      samples.push(ms);
      byKind[change.kind].samples.push(ms);
    } else {
      unmatched.push(change);
      byKind[change.kind].missed += 1;
    }
    if (change.kind !== 'removed') continue;
    const drop = find('score_drop', change, fqdn);
    if (drop) {
      used.add(drop.id);
      byKind.score_drop.samples.push(Date.parse(drop.firstSeenAt) - change.at);
    } else byKind.score_drop.missed += 1;
  }
  const stillOpen = (change: Change) => {
    const fqdn = fqdnOf(change.domainIndex);
    return alerts.some((a) => {
      const first = Date.parse(a.firstSeenAt);
      const ended = a.endedAt === null ? Number.POSITIVE_INFINITY : Date.parse(a.endedAt);
      return first < change.at && ended >= change.at && matches(change.kind, change, a, fqdn);
    });
  };
  const open = unmatched.filter(stillOpen).length;
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    changes: changes.length,
    missed: unmatched.length,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : null,
    samples,
    byKind,
    unmatched,
    missedWhy: { open, untold: unmatched.length - open },
  };
}
