/**
 * The DNS watch's settings (mirror setting `dnsWatch`) and the resolver list people write.
 */
import { getServers } from 'node:dns';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { DnsServer } from './dnsQuery.ts';

/** The settings key. */
export const DNS_WATCH_SETTINGS_KEY = 'dnsWatch';

/** What the user sets: on or off, which resolvers, and the pace. */
export interface DnsWatchSettings {
  enabled: boolean;
  /** Resolvers as `HOST[:PORT]`; empty: the system's. */
  servers: string[];
  floorSeconds: number;
  ceilingSeconds: number;
  /** Queries a second to each resolver. */
  ratePerSecond: number;
}

/**
 * Defaults: ask each record when its TTL runs out but not more than once a minute, at least hourly, and at
 * most 100 queries a second to any one resolver — 6,000 a minute, a full round of 5,000 domains' 25,000
 * records in about 4 minutes, polite to public resolvers (which serve far more per client).
 */
export const DEFAULT_DNS_WATCH_SETTINGS: DnsWatchSettings = {
  enabled: true,
  servers: [],
  floorSeconds: 60,
  ceilingSeconds: 3600,
  ratePerSecond: 100,
};

/** Parses `HOST[:PORT]`, `[v6]:PORT`, a bare IPv6 address or `dns://HOST:PORT`; null when it is not one. */
export function parseServer(text: string): DnsServer | null {
  const t = text.trim().replace(/^dns:\/\//i, '');
  let host = t;
  let port = 53;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if (isIP(t) !== 6) {
    const m = /^([^:]+)(?::(\d+))?$/.exec(t);
    if (!m) return null;
    host = m[1]!;
    if (m[2] !== undefined) port = Number(m[2]);
  }
  // Resolvers are addressed by IP: looking up a resolver's name would need a resolver.
  if (isIP(host) === 0 || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host, port };
}

const serverText = z
  .string()
  .refine((s) => parseServer(s) !== null, 'not an IP address with an optional :port');

export const dnsWatchSettingsSchema = z
  .object({
    enabled: z.boolean(),
    servers: z.array(serverText).max(8),
    floorSeconds: z.number().int().min(5).max(86_400),
    ceilingSeconds: z.number().int().min(5).max(86_400),
    ratePerSecond: z.number().int().min(1).max(10_000),
  })
  .refine((s) => s.ceilingSeconds >= s.floorSeconds, {
    message: 'the ceiling must not be below the floor',
    path: ['ceilingSeconds'],
  });

/** The stored settings over the defaults (a bad stored value falls back to the defaults). */
export function readDnsWatchSettings(stored: unknown): DnsWatchSettings {
  const parsed = dnsWatchSettingsSchema.safeParse({
    ...DEFAULT_DNS_WATCH_SETTINGS,
    ...(stored && typeof stored === 'object' ? stored : {}),
  });
  return parsed.success ? parsed.data : DEFAULT_DNS_WATCH_SETTINGS;
}

/** The servers to ask: the listed ones, else the system's (as Node's resolver reads them). */
export function chooseServers(listed: readonly string[], system: () => string[] = getServers): DnsServer[] {
  const source = listed.length > 0 ? listed : system();
  return source.map(parseServer).filter((s): s is DnsServer => s !== null);
}

/** The variable a launcher (the demo) uses to hand the desktop app its resolvers: `HOST[:PORT]`, comma-separated. */
export const DNS_SERVERS_ENV = 'AUTHWATCH_DNS_SERVERS';

/** The resolvers named in AUTHWATCH_DNS_SERVERS (invalid entries are left out). */
export function dnsServersFromEnv(env: NodeJS.ProcessEnv): string[] {
  return (env[DNS_SERVERS_ENV] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && parseServer(s) !== null);
}
