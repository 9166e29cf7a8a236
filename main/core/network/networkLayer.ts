import type * as UndiciModule from 'undici';
import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import {
  DEFAULT_NETWORK_SETTINGS,
  type NetworkSettings,
  type NetworkStatus,
} from '../../../shared/bridge/network.ts';
import type { CertificatePeek } from './certificateIssuer.ts';
import { trustedAuthorities } from './extraCa.ts';
import {
  envProxies,
  proxyRoute,
  withoutCredentials,
  type ProxyChoice,
  type ProxyRoute,
} from './proxyRoute.ts';
import { explainFailure, NetworkProblem } from './networkWords.ts';

/** What the one network layer of a process is built from. */
export interface NetworkLayerOptions {
  /** For HTTPS_PROXY, HTTP_PROXY, NO_PROXY and NODE_EXTRA_CA_CERTS (lower and upper case). */
  env: NodeJS.ProcessEnv;
  /** The extra CA file of the command line or AUTHWATCH_EXTRA_CA, with what named it. */
  caFile?: { path: string; from: string };
  /** Settings → Network as stored now (read before every request; a change applies to the next one). */
  settings?: () => NetworkSettings;
  /**
   * Electron's `net.fetch`: Chromium's network stack with the system proxy, PAC/WPAD and the OS trust
   * store. Used in the `system` mode; absent (headless, the browser host), `system` means the environment.
   */
  systemFetch?: typeof fetch;
  /** Names a refused certificate's issuer (tests: a stand-in). */
  peekIssuer?: (peek: CertificatePeek) => Promise<string | null>;
}

/** Every outgoing HTTP(S) request of the app, and the trust its other TLS connections (SMTP) share. */
export interface NetworkLayer {
  fetch: typeof fetch;
  /** TLS options for SMTP: its `ca` is read when a mail goes, so a CA set later applies too. */
  smtpTls: { readonly ca?: string[] };
  /**
   * The proxy a raw HTTPS connection to `target` goes through (the live checks' MTA-STS fetch, which must
   * see the certificate itself): the settings' route, or the environment's in the `system` mode (the
   * operating system's PAC is known to Electron's fetch only). Throws NetworkProblem when the settings name
   * a proxy that cannot be used: such a connection must not go out direct.
   */
  proxyFor(target: URL): ProxyChoice | null;
  /** What Settings → Network shows of the way out besides the settings themselves. */
  status(): NetworkStatus;
  close(): Promise<void>;
}

/** The dispatchers of one version of the settings. */
interface Ways {
  key: string;
  problem: string | null;
  route: ProxyRoute;
  ca: string[] | undefined;
  /** Made with the first request that needs it. */
  direct: Agent | null;
  proxies: Map<string, ProxyAgent>;
}

type Undici = typeof UndiciModule;
let undiciModule: Promise<Undici> | undefined;
/** undici (~400 KB) loads with the first request: a command that sends none (status, export) never pays. */
const loadUndici = (): Promise<Undici> => (undiciModule ??= import('undici'));

/** Responses that must not carry a body when rebuilt. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The parts of a fetch call, whichever of a Request and an init carries them. */
async function partsOf(input: string | URL | Request, init: RequestInit | undefined) {
  const request = input instanceof Request ? input : null;
  const body = init?.body ?? (request?.body ? await request.arrayBuffer() : undefined);
  return {
    url: request ? request.url : String(input),
    method: init?.method ?? request?.method ?? 'GET',
    headers: [...new Headers(init?.headers ?? request?.headers)],
    body,
    signal: init?.signal ?? request?.signal ?? undefined,
    redirect: init?.redirect ?? request?.redirect ?? 'follow',
  };
}

/**
 * The network layer (DESIGN.md "network"): Electron's network stack in the desktop app's `system` mode,
 * else undici with the proxy the settings or the environment choose per URL and the extra authorities.
 * TLS verification is never turned off. Failures a person can act on (a proxy that refuses, asks for a
 * login, a certificate from an authority not trusted here) become a NetworkProblem in those words.
 */
export function createNetworkLayer(options: NetworkLayerOptions): NetworkLayer {
  const settingsNow = options.settings ?? (() => DEFAULT_NETWORK_SETTINGS);
  let ways: Ways | null = null;

  const build = (settings: NetworkSettings): Ways => {
    const files = [
      ...(options.caFile ? [options.caFile] : []),
      ...(settings.caFile ? [{ path: settings.caFile, from: 'Settings → Network' }] : []),
    ];
    let problem: string | null = null;
    let route: ProxyRoute = () => null;
    let ca: string[] | undefined;
    try {
      route = proxyRoute(settings, options.env);
      ca = trustedAuthorities(files, options.env);
    } catch (error) {
      problem = (error as Error).message;
    }
    return {
      key: JSON.stringify(settings),
      problem,
      route,
      ca,
      direct: null,
      proxies: new Map(),
    };
  };

  const current = (settings: NetworkSettings): Ways => {
    const key = JSON.stringify(settings);
    if (ways?.key !== key) {
      const old = ways;
      ways = build(settings);
      if (old) void closeWays(old);
    }
    return ways;
  };

  const dispatcherFor = (u: Undici, w: Ways, proxy: ProxyChoice | null): Dispatcher => {
    if (!proxy) return (w.direct ??= new u.Agent(w.ca ? { connect: { ca: w.ca } } : {}));
    let agent = w.proxies.get(proxy.url.href);
    if (!agent) {
      const tls = w.ca ? { ca: w.ca } : undefined;
      agent = new u.ProxyAgent({
        uri: proxy.url.href,
        // Plain http goes as an absolute-form request, as proxies expect; https through a CONNECT tunnel.
        proxyTunnel: false,
        ...(tls ? { requestTls: tls, proxyTls: tls } : {}),
      });
      w.proxies.set(proxy.url.href, agent);
    }
    return agent;
  };

  const fail = async (error: unknown, target: URL, proxy: ProxyChoice | null, system: boolean) => {
    const words = await explainFailure(error, {
      target,
      proxy,
      system,
      ...(options.peekIssuer ? { peekIssuer: options.peekIssuer } : {}),
    });
    return words ? new NetworkProblem(words) : error;
  };

  const networkFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const settings = settingsNow();
    if (settings.proxy === 'system' && options.systemFetch) {
      try {
        return await options.systemFetch(input, init);
      } catch (error) {
        if (init?.signal?.aborted || (input instanceof Request && input.signal.aborted)) throw error;
        throw await fail(error, new URL(input instanceof Request ? input.url : String(input)), null, true);
      }
    }
    const w = current(settings);
    if (w.problem) throw new NetworkProblem(w.problem);
    const parts = await partsOf(input, init);
    const target = new URL(parts.url);
    const proxy = w.route(target);
    const u = await loadUndici();
    let response: Awaited<ReturnType<Undici['fetch']>>;
    try {
      response = await u.fetch(parts.url, {
        method: parts.method,
        headers: parts.headers,
        body: parts.body as never,
        ...(parts.signal ? { signal: parts.signal } : {}),
        redirect: parts.redirect,
        dispatcher: dispatcherFor(u, w, proxy),
      });
    } catch (error) {
      if (parts.signal?.aborted) throw error;
      throw await fail(error, target, proxy, false);
    }
    if (proxy && response.status === 407) {
      await response.body?.cancel().catch(() => undefined);
      throw await fail(new Error('Proxy Authentication Required (407)'), target, proxy, false);
    }
    // Callers get the platform's Response (the one their types and checks know).
    return new Response(NULL_BODY.has(response.status) ? null : (response.body as ReadableStream | null), {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
    });
  };

  return {
    fetch: networkFetch as typeof fetch,
    smtpTls: {
      get ca() {
        return current(settingsNow()).ca;
      },
    },
    proxyFor(target) {
      const w = current(settingsNow());
      if (w.problem) throw new NetworkProblem(w.problem);
      return w.route(target);
    },
    status() {
      const settings = settingsNow();
      const env = envProxies(options.env);
      return {
        settings,
        system: options.systemFetch ? 'operating system' : 'environment',
        environment: {
          httpsProxy: withoutCredentials(env.https),
          httpProxy: withoutCredentials(env.http),
          noProxy: env.noProxy,
        },
        caFileFromStart: options.caFile?.path ?? null,
        problem: current(settings).problem,
      };
    },
    async close() {
      if (ways) await closeWays(ways);
      ways = null;
    },
  };
}

async function closeWays(w: Ways): Promise<void> {
  await Promise.allSettled([w.direct?.close(), ...[...w.proxies.values()].map((p) => p.close())]);
}
