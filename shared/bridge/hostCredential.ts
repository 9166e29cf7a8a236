// How a page of the browser host proves it holds this run's secret. Kept free of zod and of Node modules:
// the renderer and the host both import it.

/** The subprotocol the host selects (never the credential: the answer names no secret). */
export const BRIDGE_PROTOCOL = 'authwatch.v1';

const CREDENTIAL_PREFIX = 'authwatch.k.';

/** Close code of a connection from our origin that does not hold this run's secret. */
export const CLOSE_UNAUTHORISED = 4401;

/**
 * The subprotocols a page offers: the bridge's and one carrying the secret. The secret travels only on the
 * WebSocket to the page's own origin (scheme, host and port) — unlike a cookie, which a browser sends to
 * every port of 127.0.0.1.
 */
export function bridgeProtocols(secret: string | null): string[] {
  return secret ? [BRIDGE_PROTOCOL, `${CREDENTIAL_PREFIX}${secret}`] : [BRIDGE_PROTOCOL];
}

/** The secret a Sec-WebSocket-Protocol header presents, or null. */
export function presentedSecret(header: string | undefined): string | null {
  for (const offered of (header ?? '').split(',')) {
    const value = offered.trim();
    if (value.startsWith(CREDENTIAL_PREFIX)) return value.slice(CREDENTIAL_PREFIX.length);
  }
  return null;
}

/** The secret in a link's fragment (`#k=…`, never sent to any server), or null. */
export function secretInFragment(hash: string): string | null {
  return /^#k=([A-Za-z0-9_-]{16,200})$/.exec(hash)?.[1] ?? null;
}
