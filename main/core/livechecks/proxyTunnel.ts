/**
 * A CONNECT tunnel through the company's forward proxy (Settings → Network, or HTTPS_PROXY/NO_PROXY), for
 * the live checks' own TLS connections that cannot go through `fetch` because they must see the certificate
 * whatever it is (./policyFetch.ts). The tunnel carries bytes only: the TLS handshake runs end to end over
 * it, so the certificate judged is the origin's (or, under TLS inspection, the inspecting proxy's, which the
 * extra CA then has to vouch for).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type Socket } from 'node:net';
import { portOf } from '../network/proxyBypass.ts';
import type { ProxyChoice } from '../network/proxyRoute.ts';

/** The proxy did not open the tunnel: the network's trouble, never the checked domain's (no evidence). */
export class TunnelError extends Error {
  override readonly name = 'TunnelError';
}

/** Opens a tunnel to `address:port` through `proxy`; rejects in words that name the proxy (never its login). */
export function openTunnel(o: {
  proxy: ProxyChoice;
  address: string;
  port: number;
  ca: readonly string[] | undefined;
  timeoutMs: number;
}): Promise<Socket> {
  const { url, shown } = o.proxy;
  const target = `${isIPv6(o.address) ? `[${o.address}]` : o.address}:${o.port}`;
  const login = url.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : null;
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: portOf(url),
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...(login ? { 'proxy-authorization': login } : {}) },
      agent: false,
      ...(url.protocol === 'https:' && o.ca ? { ca: [...o.ca] } : {}),
      timeout: o.timeoutMs,
    });
    req.on('timeout', () => {
      req.destroy();
      reject(new TunnelError(`the proxy ${shown} did not open a tunnel within ${o.timeoutMs / 1000} s`));
    });
    req.on('error', (error) =>
      reject(
        new TunnelError(
          `the proxy ${shown} cannot be reached (${(error as NodeJS.ErrnoException).code ?? error.message})`,
        ),
      ),
    );
    req.on('connect', (res, socket) => {
      if (res.statusCode === 200) {
        req.setTimeout(0);
        resolve(socket);
        return;
      }
      socket.destroy();
      reject(
        new TunnelError(
          res.statusCode === 407
            ? `the proxy ${shown} asks for a login (407) that Settings → Network does not give`
            : `the proxy ${shown} refused the tunnel to ${target} (HTTP ${res.statusCode ?? '?'})`,
        ),
      );
    });
    req.end();
  });
}
