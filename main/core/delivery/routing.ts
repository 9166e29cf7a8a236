import { matchesAlert, type AlertFacts, type AlertMatchers } from '../alerts/matchers.ts';
import type { Severity } from '../alerts/types.ts';
import type { Channel } from '../mirror/deliveryTypes.ts';

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
  /** Re-send a still-open, unacknowledged alert this often (Alertmanager's repeat_interval); null: never. */
  repeatMinutes: number | null;
  /** A critical still open and unacknowledged this long after it was raised goes to escalateTo too. */
  escalateAfterMinutes: number | null;
  escalateTo: number[];
}

/** Where one alert goes: the routes it took (in order) and the channels they name, each once. */
export interface RouteChoice {
  routes: Route[];
  channels: Channel[];
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
  const named = new Set(routes.filter((r) => !r.isDefault).flatMap((r) => r.channelIds ?? []));
  const ids = new Set<number>();
  for (const route of taken) {
    const list = route.channelIds ?? channels.filter((c) => !named.has(c.id)).map((c) => c.id);
    for (const id of list) ids.add(id);
  }
  return { routes: taken, channels: channels.filter((c) => ids.has(c.id) && channelTakes(c, facts)) };
}

/** The default route of a table that has none yet: every channel no route names. */
export const DEFAULT_ROUTE: Omit<Route, 'id'> = {
  name: 'Default',
  matchers: {},
  channelIds: null,
  continue: false,
  isDefault: true,
  repeatMinutes: null,
  escalateAfterMinutes: null,
  escalateTo: [],
};
