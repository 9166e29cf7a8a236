import type { NetworkSettings } from '../../../shared/bridge/network.ts';
import { parseBypass, portOf } from './proxyBypass.ts';

/** A proxy a request goes through. `url` may carry credentials: it is never shown; `shown` is. */
export interface ProxyChoice {
  url: URL;
  /** `host:port`, what error words and screens may show. */
  shown: string;
}

/** Picks the proxy of each URL (null: direct). */
export type ProxyRoute = (target: URL) => ProxyChoice | null;

/** A proxy address that cannot be used, in words that name where it came from. */
export class ProxyAddressError extends Error {
  override readonly name = 'ProxyAddressError';
}

/** The proxy's address as people write it (`proxy:3128`, `http://user:pass@proxy:3128/`), checked. */
export function parseProxyUrl(text: string, from: string): ProxyChoice {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ProxyAddressError(`The proxy address in ${from} is not an address like http://proxy:3128.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProxyAddressError(
      `The proxy address in ${from} must start with http:// or https:// (it starts with ${url.protocol}//).`,
    );
  if (!url.hostname) throw new ProxyAddressError(`The proxy address in ${from} has no host name.`);
  return { url, shown: `${url.hostname}:${portOf(url)}` };
}

/** The environment's proxy variables; lower case first, as curl and undici read them. */
export function envProxies(env: NodeJS.ProcessEnv): { https: string; http: string; noProxy: string } {
  const read = (name: string) => (env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '').trim();
  return { https: read('HTTPS_PROXY'), http: read('HTTP_PROXY'), noProxy: read('NO_PROXY') };
}

/** A proxy address as a screen may show it: without its user name and password. */
export function withoutCredentials(text: string): string {
  if (!text) return '';
  try {
    const { url } = parseProxyUrl(text, 'the environment');
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(not an address)';
  }
}

/**
 * The route of the settings' mode: `none` direct; `manual` the set proxy except the bypass list; `system`
 * (when no operating system is asked) HTTPS_PROXY for https, HTTP_PROXY for http, except NO_PROXY.
 * Throws ProxyAddressError for an address that cannot be used (a request must not go out direct then).
 */
export function proxyRoute(settings: NetworkSettings, env: NodeJS.ProcessEnv): ProxyRoute {
  if (settings.proxy === 'none') return () => null;
  if (settings.proxy === 'manual') {
    if (!settings.proxyUrl)
      throw new ProxyAddressError('Settings → Network says to use a proxy but gives no proxy address.');
    const proxy = parseProxyUrl(settings.proxyUrl, 'Settings → Network');
    const bypass = parseBypass(settings.bypass);
    return (target) => (bypass(target) ? null : proxy);
  }
  const vars = envProxies(env);
  const http = vars.http ? parseProxyUrl(vars.http, 'HTTP_PROXY') : null;
  // Without HTTPS_PROXY, https goes through HTTP_PROXY too (as undici and most tools read them).
  const https = vars.https ? parseProxyUrl(vars.https, 'HTTPS_PROXY') : http;
  const bypass = parseBypass(vars.noProxy);
  return (target) => {
    const proxy = target.protocol === 'https:' ? https : http;
    return proxy && !bypass(target) ? proxy : null;
  };
}
