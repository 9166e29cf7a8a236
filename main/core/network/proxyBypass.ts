import { BlockList, isIP } from 'node:net';

/** Whether a URL goes around the proxy, per a NO_PROXY-style list. */
export type BypassTest = (url: URL) => boolean;

/** The port a URL connects to (its explicit one, else its scheme's). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** A URL's host without IPv6 brackets and without a trailing dot, lower case. */
function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Reads a bypass list the way NO_PROXY is written across the ecosystem (curl, undici, Go): entries split by
 * commas or white space; `*` bypasses everything; `example.com` and `.example.com` match the name and every
 * name under it; `host:port` only that port; an IP address or CIDR block (`10.0.0.0/8`, `fd00::/8`,
 * `[::1]`) the addresses in it. Names are never resolved to compare them with addresses: a proxy exists
 * because this machine may not be able to resolve them.
 */
export function parseBypass(list: string): BypassTest {
  const names: { suffix: string; port: number | null }[] = [];
  const blocks = new BlockList();
  let everything = false;
  let anyBlock = false;
  const addresses: { address: string; family: 'ipv4' | 'ipv6'; port: number | null }[] = [];

  for (const raw of list.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') {
      everything = true;
      continue;
    }
    const cidr = /^\[?([0-9a-f.:]+)\]?\/(\d{1,3})$/.exec(entry);
    if (cidr && isIP(cidr[1]!)) {
      const family = isIP(cidr[1]!) === 6 ? 'ipv6' : 'ipv4';
      const prefix = Number(cidr[2]);
      if (prefix <= (family === 'ipv6' ? 128 : 32)) {
        blocks.addSubnet(cidr[1]!, prefix, family);
        anyBlock = true;
      }
      continue;
    }
    // `[::1]:8080`, `[::1]`, a bare IPv6 address, `10.1.2.3:8080`, `host:port`, `host`.
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    let host = entry;
    let port: number | null = null;
    if (bracketed) {
      host = bracketed[1]!;
      port = bracketed[2] ? Number(bracketed[2]) : null;
    } else if (isIP(entry) !== 6) {
      const withPort = /^(.*):(\d+)$/.exec(entry);
      if (withPort) {
        host = withPort[1]!;
        port = Number(withPort[2]);
      }
    }
    const family = isIP(host);
    if (family) {
      addresses.push({ address: host, family: family === 6 ? 'ipv6' : 'ipv4', port });
      continue;
    }
    const suffix = host.replace(/^\*?\.?/, '').replace(/\.$/, '');
    if (suffix) names.push({ suffix, port });
  }

  return (url) => {
    if (everything) return true;
    const host = bareHost(url);
    const port = portOf(url);
    const family = isIP(host);
    if (family) {
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (anyBlock && blocks.check(host, type)) return true;
      return addresses.some(
        (a) =>
          a.family === type && sameAddress(a.address, host, type) && (a.port === null || a.port === port),
      );
    }
    return names.some(
      (n) => (host === n.suffix || host.endsWith(`.${n.suffix}`)) && (n.port === null || n.port === port),
    );
  };
}

/** Two spellings of one address (`::1` and `0:0:0:0:0:0:0:1`) compare equal. */
function sameAddress(a: string, b: string, family: 'ipv4' | 'ipv6'): boolean {
  const list = new BlockList();
  list.addAddress(a, family);
  return list.check(b, family);
}
