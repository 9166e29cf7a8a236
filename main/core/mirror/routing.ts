// In mirror/ (not delivery/) because the mirror walks the routing table inside its own transactions (a
// silence's notices, the escalation sweep, the route file's checks); delivery and the facade read it here.
import { matchesAlert, type AlertFacts, type AlertMatchers } from '../alerts/matchers.ts';
import type { Severity } from '../alerts/types.ts';
import type { Channel } from './deliveryTypes.ts';

/**
 * One route of the ordered routing table: alerts its matchers select go to its channels. The first matching
 * route wins unless it says `continue`; the default route (last, matches everything) is reached when no
 * route stopped the walk.
 */
export interface Route {
  id: number;
  name: string;
  matchers: AlertMatchers;
  /** Channel ids; the default route's null means every channel no other route names. */
  channelIds: number[] | null;
  continue: boolean;
  isDefault: boolean;
  /**
   * Alertmanager's group_wait: the route's first message about new alerts waits this long to gather others
   * of the same storm (0: at once); null: the sender's own gathering (20 s of quiet, 5 min at most).
   */
  groupWaitSeconds: number | null;
  /** Channels told of an open alert hear when a silence starts and stops holding it (alert.silenced/unsilenced). */
  silenceEvents: boolean;
  /** Re-send a still-open, unacknowledged alert this often (Alertmanager's repeat_interval); null: never. */
  repeatMinutes: number | null;
  /** A critical still open and unacknowledged this long after it was raised goes to escalateTo too. */
  escalateAfterMinutes: number | null;
  escalateTo: number[];
}

/** A route as saved: an id keeps the route's identity (what it escalated, what it repeated) across saves. */
export type RouteInput = Omit<Route, 'id'> & { id?: number };

/** Where one alert goes: the routes it took (in order) and the channels they name, each once. */
export interface RouteChoice {
  routes: Route[];
  channels: Channel[];
  /** Per channel, the group wait of the first route taken that reaches it (null: the sender's default). */
  groupWait: Map<number, number | null>;
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };

/** Whether a channel's own floor lets the alert through: its account, at or above its minimum severity. */
export function channelTakes(
  channel: Pick<Channel, 'accountId' | 'minSeverity'>,
  alert: AlertFacts,
): boolean {
  if (channel.accountId !== null && channel.accountId !== alert.accountId) return false;
  return RANK[alert.severity] >= RANK[channel.minSeverity];
}

/** The channel ids a route sends to: its own, or (the default route's null) every channel no other route names. */
export function routeChannelIds(
  route: Route,
  routes: readonly Route[],
  channels: readonly Pick<Channel, 'id'>[],
): number[] {
  if (route.channelIds !== null) return route.channelIds;
  const named = new Set(routes.filter((r) => !r.isDefault).flatMap((r) => r.channelIds ?? []));
  return channels.filter((c) => !named.has(c.id)).map((c) => c.id);
}

/** Walks the table for one alert (routes in table order, the default last). */
export function routeAlert(
  routes: readonly Route[],
  facts: AlertFacts,
  channels: readonly Channel[],
): RouteChoice {
  const taken: Route[] = [];
  let stopped = false;
  for (const route of routes) {
    if (route.isDefault) continue;
    if (!matchesAlert(route.matchers, facts)) continue;
    taken.push(route);
    if (!route.continue) {
      stopped = true;
      break;
    }
  }
  const fallback = routes.find((r) => r.isDefault);
  if (!stopped && fallback) taken.push(fallback);
  const groupWait = new Map<number, number | null>();
  for (const route of taken)
    for (const id of routeChannelIds(route, routes, channels))
      if (!groupWait.has(id)) groupWait.set(id, route.groupWaitSeconds);
  const reached = channels.filter(
    (c) => groupWait.has(c.id) && channelTakes(c, facts) && c.id !== facts.aboutChannelId,
  );
  return { routes: taken, channels: reached, groupWait };
}

/** The default route of a table that has none yet: every channel no route names. */
export const DEFAULT_ROUTE: Omit<Route, 'id'> = {
  name: 'Default',
  matchers: {},
  channelIds: null,
  continue: false,
  isDefault: true,
  groupWaitSeconds: null,
  silenceEvents: false,
  repeatMinutes: null,
  escalateAfterMinutes: null,
  escalateTo: [],
};
