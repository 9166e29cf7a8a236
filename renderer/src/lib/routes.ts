/**
 * The route table: for each screen of the router, how its page loads, what it is given from the address,
 * what to say while it loads, and when it starts afresh. App.svelte renders whatever the table says; adding
 * a screen is a Route in router.svelte.ts and a line here.
 */
import type { Component } from 'svelte';
import type { Route } from './router.svelte.ts';
import OverviewPage from '../pages/OverviewPage.svelte';

type RouteOf<N extends Route['name']> = Extract<Route, { name: N }>;

/** One screen of the table. */
interface Screen<N extends Route['name']> {
  // The table holds pages of different props; each entry's props() is checked against its own page below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  load: () => Promise<{ default: Component<any> }>;
  props: (route: RouteOf<N>) => Record<string, unknown>;
  /** What to say while the page's code loads (pages are split into chunks of their own). */
  loading?: string;
  /** A page whose key changes is made anew (another domain's page starts with nothing of the last). */
  key?: (route: RouteOf<N>) => string;
}

/** Checks a page's props against what its entry gives it, then keeps it in the table. */
function screen<N extends Route['name'], P extends Record<string, unknown>>(entry: {
  load: () => Promise<{ default: Component<P> }>;
  props: (route: RouteOf<N>) => P;
  loading?: string;
  key?: (route: RouteOf<N>) => string;
}): Screen<N> {
  return entry;
}

const none = () => ({});

/**
 * Every screen. The portfolio is in the first bundle; every other screen loads when first opened (its own
 * chunk), so the window shows the portfolio without parsing the charts' date adapter, the forms and their
 * validators.
 */
export const ROUTES: { [N in Route['name']]: Screen<N> } = {
  overview: screen({ load: async () => ({ default: OverviewPage }), props: none }),
  domain: screen({
    load: () => import('../pages/DomainPage.svelte'),
    props: (r: RouteOf<'domain'>) => ({ accountId: r.accountId, domainId: r.domainId, tab: r.tab }),
    loading: 'Opening the domain…',
    key: (r) => `${r.accountId}/${r.domainId}`,
  }),
  alerts: screen({ load: () => import('../pages/AlertsPage.svelte'), props: none }),
  silences: screen({ load: () => import('../pages/SilencesPage.svelte'), props: none }),
  audit: screen({ load: () => import('../pages/AuditPage.svelte'), props: none }),
  settings: screen({ load: () => import('../pages/SettingsPage.svelte'), props: none }),
  accounts: screen({ load: () => import('../pages/AccountsPage.svelte'), props: () => ({ welcome: false }) }),
  welcome: screen({ load: () => import('../pages/AccountsPage.svelte'), props: () => ({ welcome: true }) }),
  manage: screen({
    load: () => import('../pages/ManagePage.svelte'),
    props: (r: RouteOf<'manage'>) => ({ accountId: r.accountId, section: r.section }),
    key: (r) => String(r.accountId),
  }),
};

// One import per screen: the same promise each time, so moving within a screen (another tab of a domain)
// re-renders the page with new props instead of loading it anew.
const loaded = new Map<Route['name'], ReturnType<Screen<Route['name']>['load']>>();

/** The table's entry for a route, its props read from the address. */
export function screenOf<N extends Route['name']>(
  route: RouteOf<N>,
): {
  load: Screen<N>['load'];
  props: Record<string, unknown>;
  loading: string | null;
  key: string;
} {
  // route.name is N's name, but the compiler does not tie the route's union to N.
  const entry: Screen<N> = ROUTES[route.name as N];
  return {
    load: () => {
      let promise = loaded.get(route.name);
      if (!promise) loaded.set(route.name, (promise = entry.load()));
      return promise;
    },
    props: entry.props(route),
    loading: entry.loading ?? null,
    key: `${route.name}:${entry.key?.(route) ?? ''}`,
  };
}
