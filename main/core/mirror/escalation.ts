// In mirror/ (not delivery/) because the mirror decides what is owed inside the sweep's transaction.
import type { Alert } from './types.ts';
import type { Route } from './routing.ts';

/** Reminders of one alert per route at most (Alertmanager repeats for ever; a week of hourly pings helps nobody). */
export const MAX_REPEATS = 12;

/** What escalation or repeat already sent for an alert on a route. */
export interface NoticeState {
  count: number;
  lastAt: string;
}

/** One message owed now: an escalation to a route's escalation channels, or a reminder to its channels. */
export interface DueNotice {
  routeId: number;
  kind: 'escalated' | 'repeated';
  channelIds: number[];
  count: number;
}

/**
 * What is owed for an open alert at `now` on the routes it takes. Never for a resolved, acknowledged or
 * muted alert (the caller leaves silenced ones out): an escalation once, when a critical has been open and
 * unacknowledged for the route's minutes; a reminder per elapsed repeat interval since it was raised (one
 * message however many intervals a sleeping laptop missed), at most MAX_REPEATS, to the route's channels
 * that were told of it.
 */
export function dueNotices(
  alert: Alert,
  routes: readonly Route[],
  now: number,
  state: (routeId: number, kind: DueNotice['kind']) => NoticeState | null,
  told: readonly number[],
): DueNotice[] {
  if (alert.resolvedAt !== null || alert.acknowledgedAt !== null || alert.suppressed !== null) return [];
  const open = now - Date.parse(alert.firstSeenAt);
  const out: DueNotice[] = [];
  for (const route of routes) {
    const minutes = route.escalateAfterMinutes;
    if (
      minutes !== null &&
      alert.severity === 'critical' &&
      route.escalateTo.length > 0 &&
      open >= minutes * 60_000 &&
      state(route.id, 'escalated') === null
    )
      out.push({ routeId: route.id, kind: 'escalated', channelIds: [...route.escalateTo], count: 1 });
    if (route.repeatMinutes !== null) {
      const owed = Math.min(Math.floor(open / (route.repeatMinutes * 60_000)), MAX_REPEATS);
      const sent = state(route.id, 'repeated')?.count ?? 0;
      const to = told.filter((id) => route.channelIds === null || route.channelIds.includes(id));
      if (owed > sent && to.length > 0)
        out.push({ routeId: route.id, kind: 'repeated', channelIds: to, count: owed });
    }
  }
  return out;
}

/**
 * When this open alert can next owe something on these routes (epoch ms), given what was sent: its
 * escalation's moment while not sent, its next reminder while under the cap; Infinity when nothing more can
 * come of them. Lets the sweep leave alone what is not due rather than read every open alert each time.
 */
export function nextNoticeAt(
  alert: Alert,
  routes: readonly Route[],
  state: (routeId: number, kind: DueNotice['kind']) => NoticeState | null,
): number {
  const raised = Date.parse(alert.firstSeenAt);
  let next = Infinity;
  for (const route of routes) {
    const minutes = route.escalateAfterMinutes;
    if (minutes !== null && alert.severity === 'critical' && route.escalateTo.length > 0)
      if (state(route.id, 'escalated') === null) next = Math.min(next, raised + minutes * 60_000);
    if (route.repeatMinutes !== null) {
      const sent = state(route.id, 'repeated')?.count ?? 0;
      if (sent < MAX_REPEATS) next = Math.min(next, raised + (sent + 1) * route.repeatMinutes * 60_000);
    }
  }
  return next;
}
