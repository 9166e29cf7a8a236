import { peekIssuer as defaultPeek, type CertificatePeek } from './certificateIssuer.ts';
import { portOf } from './proxyBypass.ts';
import type { ProxyChoice } from './proxyRoute.ts';

/** A request that failed for a reason of the network, in words a person can act on. */
export class NetworkProblem extends Error {
  override readonly name = 'NetworkProblem';
}

/** How a request went out when it failed. */
export interface FailedRequest {
  target: URL;
  /** The proxy it went through (null: direct, or the operating system chose). */
  proxy: ProxyChoice | null;
  /** Whether the operating system's network stack (Electron) sent it: its errors are `net::ERR_…`. */
  system?: boolean;
  /** Names a refused certificate's issuer (tests: a stand-in). */
  peekIssuer?: (peek: CertificatePeek) => Promise<string | null>;
}

const ADD_CA = 'add it in Settings → Network (or give it with --ca-file or AUTHWATCH_EXTRA_CA)';
const ADD_CA_SYSTEM =
  "add it to this computer's trust store, or choose None or Manual in Settings → Network and give it there";

/** Verification failures that mean "signed by an authority not trusted here". */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** The error and its causes, outermost first, as code and message. */
function chain(error: unknown): { code: string; message: string }[] {
  const out: { code: string; message: string }[] = [];
  let at: unknown = error;
  for (let i = 0; i < 6 && at && typeof at === 'object'; i++) {
    const e = at as { code?: unknown; message?: unknown; cause?: unknown };
    out.push({
      code: typeof e.code === 'string' ? e.code : '',
      message: typeof e.message === 'string' ? e.message : '',
    });
    at = e.cause;
  }
  return out;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Electron's `net::ERR_…` failures (Chromium's names). */
function systemWords(message: string, target: URL): string | null {
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  const host = hostOf(target);
  switch (code) {
    case 'ERR_PROXY_CONNECTION_FAILED':
      return "The proxy this computer's network settings name refused the connection.";
    case 'ERR_TUNNEL_CONNECTION_FAILED':
      return `The proxy refused to open a connection to ${host}:${portOf(target)}.`;
    case 'ERR_PROXY_AUTH_REQUESTED':
    case 'ERR_PROXY_AUTH_UNSUPPORTED':
    case 'ERR_PROXY_AUTH_REQUESTED_WITH_NO_CONNECTION':
      return 'The proxy asks for a login (407), and this computer has none for it.';
    case 'ERR_CERT_AUTHORITY_INVALID':
      return `The certificate of ${host} is issued by an authority this computer does not trust — ${ADD_CA_SYSTEM}.`;
    case 'ERR_CERT_DATE_INVALID':
      return `The certificate of ${host} has expired or is not valid yet.`;
    case 'ERR_CERT_COMMON_NAME_INVALID':
      return `The certificate presented for ${host} is not for that name.`;
    case 'ERR_NAME_NOT_RESOLVED':
      return `The name ${host} could not be found (DNS).`;
    case 'ERR_CONNECTION_REFUSED':
      return `${host}:${portOf(target)} refused the connection.`;
    default:
      return null;
  }
}

/**
 * The words for a failed request, or null when there is nothing more to say than the error itself. Proxy
 * credentials never appear: a proxy is named by host and port only.
 */
export async function explainFailure(error: unknown, request: FailedRequest): Promise<string | null> {
  const causes = chain(error);
  const codes = new Set(causes.map((c) => c.code));
  const text = causes.map((c) => c.message).join(' | ');
  const { target, proxy } = request;
  const host = hostOf(target);

  if (request.system) return systemWords(text, target);

  if (proxy) {
    if (/\(407\)/.test(text))
      return proxy.url.username
        ? `The proxy at ${proxy.shown} did not accept the user name and password it was given (407).`
        : `The proxy asks for a login (407): the proxy at ${proxy.shown} wants a user name and password ` +
            '(give them in its address, http://user:password@host:port).';
    const answered = /Proxy response \((\d+)\)/.exec(text);
    if (answered)
      return `The proxy at ${proxy.shown} refused to open a connection to ${host}:${portOf(target)} (HTTP ${answered[1]}).`;
    if (codes.has('ECONNREFUSED')) return `The proxy at ${proxy.shown} refused the connection.`;
    if (codes.has('ENOTFOUND') || codes.has('EAI_AGAIN'))
      return `The proxy's name ${hostOf(proxy.url)} could not be found (DNS).`;
    if (codes.has('ETIMEDOUT') || codes.has('UND_ERR_CONNECT_TIMEOUT') || codes.has('EHOSTUNREACH'))
      return `The proxy at ${proxy.shown} did not answer.`;
  }

  const untrusted = [...codes].find((c) => UNTRUSTED.has(c));
  if (untrusted) {
    const issuer = await (request.peekIssuer ?? defaultPeek)({ host, port: portOf(target), proxy });
    const by = issuer ? `is issued by ${issuer}` : 'is issued by an authority';
    return `The certificate of ${host} ${by}, which this computer does not trust — ${ADD_CA}.`;
  }
  if (codes.has('CERT_HAS_EXPIRED')) return `The certificate of ${host} has expired.`;
  if (codes.has('CERT_NOT_YET_VALID')) return `The certificate of ${host} is not valid yet.`;
  if (codes.has('ERR_TLS_CERT_ALTNAME_INVALID'))
    return `The certificate presented for ${host} is not for that name.`;
  return null;
}
