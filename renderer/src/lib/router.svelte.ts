/** The screens, from the address's hash (works from app:// and http:// alike, and survives a reload). */
export type Route =
  | { name: 'overview' }
  | { name: 'domain'; accountId: number; domainId: number; tab: string }
  | { name: 'alerts' }
  | { name: 'silences' }
  | { name: 'audit' }
  | { name: 'settings' }
  | { name: 'accounts' }
  | { name: 'manage'; accountId: number | null; section: string }
  | { name: 'welcome' };

/** Reads a hash like #/domain/1/42/dns into a Route (unknown hashes show the overview). */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('?')[0]!.split('/').filter(Boolean);
  const [head, a, b, c] = parts;
  if (head === 'domain' && a && b && /^\d+$/.test(a) && /^\d+$/.test(b))
    return { name: 'domain', accountId: Number(a), domainId: Number(b), tab: c ?? 'summary' };
  if (head === 'manage') {
    const numeric = !!a && /^\d+$/.test(a);
    return { name: 'manage', accountId: numeric ? Number(a) : null, section: (numeric ? b : a) ?? 'members' };
  }
  if (
    head === 'alerts' ||
    head === 'silences' ||
    head === 'audit' ||
    head === 'settings' ||
    head === 'accounts' ||
    head === 'welcome'
  )
    return { name: head };
  return { name: 'overview' };
}

/** The current route, kept in step with location.hash. */
export const router = $state<{ route: Route }>({ route: parseRoute(location.hash) });

window.addEventListener('hashchange', () => {
  router.route = parseRoute(location.hash);
});

/** The hash of a domain page (tab optional). */
export function domainHref(accountId: number, domainId: number, tab?: string): string {
  return `#/domain/${accountId}/${domainId}${tab ? `/${tab}` : ''}`;
}

/** Navigate to a hash. */
export function go(hash: string): void {
  if (location.hash !== hash) location.hash = hash;
}
