import { request as httpRequest } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type DetailedPeerCertificate } from 'node:tls';
import type { ProxyChoice } from './proxyRoute.ts';

/** Where a refused certificate was met: the server, reached direct or through a proxy's tunnel. */
export interface CertificatePeek {
  host: string;
  port: number;
  proxy: ProxyChoice | null;
  timeoutMs?: number;
}

/** The authority at the top of the chain the server sent: the one this computer would have to trust. */
function topIssuer(cert: DetailedPeerCertificate): string | null {
  let top = cert;
  const seen = new Set<DetailedPeerCertificate>();
  while (top.issuerCertificate && top.issuerCertificate !== top && !seen.has(top)) {
    seen.add(top);
    top = top.issuerCertificate;
  }
  const name = top.issuer?.CN ?? top.issuer?.O;
  return typeof name === 'string' && name ? name : Array.isArray(name) ? (name[0] ?? null) : null;
}

/** A tunnel through the proxy to host:port (CONNECT), as undici opened it for the refused request. */
function tunnel(peek: CertificatePeek, proxy: ProxyChoice, signal: AbortSignal): Promise<Socket> {
  const target = `${isIP(peek.host) === 6 ? `[${peek.host}]` : peek.host}:${peek.port}`;
  const { url } = proxy;
  const headers: Record<string, string> = { host: target };
  if (url.username)
    headers['proxy-authorization'] =
      `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || 80,
      method: 'CONNECT',
      path: target,
      headers,
      signal,
    });
    req.on('connect', (res, socket) => {
      if (res.statusCode === 200) resolve(socket);
      else {
        socket.destroy();
        reject(new Error(`proxy answered ${res.statusCode}`));
      }
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Names the authority that issued a certificate the real connection refused, so the error can say which
 * one to trust. A separate look: it completes a handshake without verifying, reads the chain and closes —
 * not one byte of a request is sent over it, and nothing but the name comes back. Null when it cannot tell.
 */
export async function peekIssuer(peek: CertificatePeek): Promise<string | null> {
  const signal = AbortSignal.timeout(peek.timeoutMs ?? 3_000);
  let socket: Socket | undefined;
  try {
    if (peek.proxy) socket = await tunnel(peek, peek.proxy, signal);
    const servername = isIP(peek.host) ? undefined : peek.host;
    return await new Promise<string | null>((resolve) => {
      const tls = tlsConnect({
        ...(socket ? { socket } : { host: peek.host, port: peek.port }),
        ...(servername ? { servername } : {}),
        // Only to read the certificate's issuer (see above); the socket is destroyed on the handshake.
        rejectUnauthorized: false,
      });
      const done = (name: string | null) => {
        tls.destroy();
        resolve(name);
      };
      signal.addEventListener('abort', () => done(null), { once: true });
      tls.once('secureConnect', () => done(topIssuer(tls.getPeerCertificate(true))));
      tls.once('error', () => done(null));
    });
  } catch {
    return null;
  } finally {
    socket?.destroy();
  }
}
