import { rendererContentSecurityPolicy } from '../core/index.ts';

/** The renderer's Content-Security-Policy (the bridge is IPC, so connect-src needs nothing beyond 'self'). */
export const CONTENT_SECURITY_POLICY = rendererContentSecurityPolicy("'self'");

/** The part of Electron's session.webRequest we use. */
export interface HeaderHook {
  onHeadersReceived(
    listener: (
      details: { responseHeaders?: Record<string, string[]> },
      callback: (response: { responseHeaders: Record<string, string[]> }) => void,
    ) => void,
  ): void;
}

/**
 * Adds the policy to every response the session receives, replacing any a response brings: the protocol
 * handler sets it on our own files too, and this covers anything else that might load.
 */
export function enforceContentSecurityPolicy(webRequest: HeaderHook): void {
  webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders: headers });
  });
}
