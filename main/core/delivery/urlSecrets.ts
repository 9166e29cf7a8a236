/**
 * A URL carries a secret when it has credentials (user:password@) or a query: receivers take tokens there
 * (`?token=`, `?api_key=`). Such a URL is kept in the secret store, never in the mirror, and shown redacted.
 */
export function urlCarriesSecret(url: URL): boolean {
  return url.username !== '' || url.password !== '' || url.search !== '';
}

/** A URL as it may be shown: credentials and every query value replaced by "…" (the names stay). */
export function redactedUrl(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return '…';
  }
  const credentials = url.username || url.password ? '…@' : '';
  const query = [...url.searchParams.keys()].map((k) => `${k}=…`).join('&');
  // A bare host reads as it was typed ("http://127.0.0.1:9093", not "…:9093/").
  const path = url.pathname === '/' && !query ? '' : url.pathname;
  return `${url.protocol}//${credentials}${url.host}${path}${query ? `?${query}` : ''}`;
}
