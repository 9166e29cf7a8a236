/**
 * Fetches an MTA-STS policy as a sending MTA does (RFC 8461 §3.3): HTTPS GET of
 * https://mta-sts.<domain>/.well-known/mta-sts.txt, dialled at the address the live checks' DNS gave, with
 * SNI and Host the policy host's name; the certificate validated for that name against the trusted
 * authorities; no redirect followed; at most 64 KiB read; a deadline on the whole exchange. The certificate is
 * read even when it does not validate (the Checks tab shows what was served), but then the body is not used
 * as a policy.
 */
import { request } from 'node:https';
import type { Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { ProxyChoice } from '../network/proxyRoute.ts';
import { MTA_STS_MAX_POLICY_BYTES } from '../../../shared/email-auth/mtaStsPolicy.ts';
import { certificateSeen, type CertificateSeen } from './peerCertificate.ts';
import { openTunnel } from './proxyTunnel.ts';

/** What the fetch saw. */
export interface PolicyFetch {
  status: number | null;
  /** Why no policy could be used, in words; null when the body is the policy. */
  error: string | null;
  certificate: CertificateSeen | null;
  body: string | null;
}

const NETWORK_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'no answer in time',
};

/** A socket error in words. */
export function networkWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code && NETWORK_WORDS[code]) ?? (error instanceof Error ? error.message : String(error));
}

interface FetchTarget {
  host: string;
  address: string;
  port: number;
  ca: readonly string[] | undefined;
  timeoutMs: number;
  now: () => number;
}

/**
 * GETs the policy of `host` from `address:port`, through a CONNECT tunnel of `proxy` when the network's
 * settings route https://<host> through one (the address is still the one the live DNS gave, as a sender
 * dials it; the proxy may not resolve the names this machine's resolvers do). Rejects with a TunnelError when
 * the proxy opens no tunnel.
 */
export async function fetchPolicy(o: FetchTarget & { proxy: ProxyChoice | null }): Promise<PolicyFetch> {
  // A tunnel the proxy does not open rejects (TunnelError): that is no answer from the policy host.
  const tunnel = o.proxy ? await openTunnel({ ...o, proxy: o.proxy }) : null;
  return getPolicy(o, tunnel);
}

function getPolicy(o: FetchTarget, tunnel: Socket | null): Promise<PolicyFetch> {
  return new Promise((resolve) => {
    let certificate: CertificateSeen | null = null;
    let settled = false;
    const done = (f: Omit<PolicyFetch, 'certificate'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      tunnel?.destroy();
      resolve({ ...f, certificate });
    };
    const req = request({
      host: o.address,
      port: o.port,
      servername: o.host,
      path: '/.well-known/mta-sts.txt',
      method: 'GET',
      headers: { host: o.host, accept: 'text/plain', 'user-agent': 'Authwatch live check' },
      ...(o.ca ? { ca: [...o.ca] } : {}),
      // Verified below, after the certificate is kept: an invalid one is a finding, not only a failure.
      rejectUnauthorized: false,
      // Through a tunnel the handshake runs over its socket (no agent: node then takes createConnection).
      ...(tunnel
        ? {
            createConnection: () =>
              tlsConnect({
                socket: tunnel,
                servername: o.host,
                ...(o.ca ? { ca: [...o.ca] } : {}),
                rejectUnauthorized: false,
              }),
          }
        : { agent: false }),
    });
    let receiving: number | null = null;
    const timer = setTimeout(
      () =>
        done({
          status: receiving,
          error:
            receiving === null
              ? `no answer within ${o.timeoutMs / 1000} s`
              : `the policy did not arrive in full within ${o.timeoutMs / 1000} s`,
          body: null,
        }),
      o.timeoutMs,
    );
    req.on('socket', (socket) => {
      socket.on('secureConnect', () => {
        certificate = certificateSeen(socket as TLSSocket, o.host, o.now());
      });
    });
    req.on('error', (error) => done({ status: null, error: networkWords(error), body: null }));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (certificate && !certificate.valid) {
        done({ status, error: `the certificate does not validate: ${certificate.problem}`, body: null });
        return;
      }
      if (status >= 300 && status < 400) {
        done({
          status,
          error: `it answered a redirect (${status}), which senders do not follow`,
          body: null,
        });
        return;
      }
      if (status !== 200) {
        done({ status, error: `it answered HTTP ${status}`, body: null });
        return;
      }
      receiving = status;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MTA_STS_MAX_POLICY_BYTES) {
          done({ status, error: 'the policy is larger than 64 KiB, which senders refuse', body: null });
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => done({ status, error: null, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => done({ status, error: networkWords(error), body: null }));
    });
    req.end();
  });
}
