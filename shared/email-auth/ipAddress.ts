/**
 * IPv4/IPv6 address and CIDR handling without node:net, so that forms in the browser use the same rules.
 */

export type IpFamily = 4 | 6;

/** A network in canonical form: host bits cleared, IPv6 written per RFC 5952. */
export interface IpNetwork {
  family: IpFamily;
  address: string;
  prefix: number;
}

// RFC 7208 ip4-network: dotted quad without leading zeros (qnum).
const QNUM = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

/** The four octets of a dotted-quad IPv4 address, or null. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => QNUM.test(p))) return null;
  return parts.map(Number);
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail allowed), or null. */
export function parseIPv6(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.length > 45) return null;
  let tail: number[] = [];
  let head = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    head = text.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::"; "64:ff9b::1.2.3.4" leaves "64:ff9b::"; "1:2:3:4:5:6:1.2.3.4" leaves a trailing ':'.
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const groups = s.split(':');
    if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
    return groups.map((g) => parseInt(g, 16));
  };
  const left = toGroups(halves[0] ?? '');
  const right = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  if (!left || !right) return null;
  const explicit = left.length + right.length + tail.length;
  if (halves.length === 2) {
    if (explicit > 7) return null;
    return [...left, ...new Array<number>(8 - explicit).fill(0), ...right, ...tail];
  }
  return explicit === 8 ? [...left, ...tail] : null;
}

/** Writes eight groups in RFC 5952 form: lower case, no leading zeros, longest zero run (≥2) as `::`. */
export function formatIPv6(groups: number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** 4 or 6 for a literal address, null for anything else. */
export function ipFamily(text: string): IpFamily | null {
  if (parseIPv4(text)) return 4;
  if (parseIPv6(text)) return 6;
  return null;
}

function toBytes(family: IpFamily, address: string): number[] | null {
  if (family === 4) return parseIPv4(address);
  const groups = parseIPv6(address);
  return groups ? groups.flatMap((g) => [g >> 8, g & 0xff]) : null;
}

function fromBytes(family: IpFamily, bytes: number[]): string {
  if (family === 4) return bytes.join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  return formatIPv6(groups);
}

/** Builds the canonical network for an address and prefix (host bits cleared); null when either is invalid. */
export function toNetwork(family: IpFamily, address: string, prefix: number): IpNetwork | null {
  const bytes = toBytes(family, address);
  const max = family === 4 ? 32 : 128;
  if (!bytes || !Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
  const masked = bytes.map((b, i) => {
    const bits = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - bits)) & 0xff);
  });
  return { family, address: fromBytes(family, masked), prefix };
}

/**
 * Parses `address[/prefix]` of the given family (or either when omitted).
 * Returns the canonical network or an error message naming what is wrong.
 */
export function parseIpNetwork(text: string, family?: IpFamily): { network: IpNetwork } | { error: string } {
  const slash = text.indexOf('/');
  const address = slash >= 0 ? text.slice(0, slash) : text;
  const detected = ipFamily(address);
  if (detected === null || (family !== undefined && detected !== family)) {
    return { error: `"${address}" is not an IPv${family ?? '4 or IPv6'} address` };
  }
  const max = detected === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    // RFC 7208 ip4-cidr-length / ip6-cidr-length: no leading zeros.
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > max) {
      return { error: `"/${p}" is not a prefix length from 0 to ${max}` };
    }
    prefix = Number(p);
  }
  const network = toNetwork(detected, address, prefix);
  return network ? { network } : { error: `"${text}" is not a valid network` };
}

/** `address` for a single host, `address/prefix` otherwise. */
export function formatNetwork(network: IpNetwork): string {
  const host = network.family === 4 ? 32 : 128;
  return network.prefix === host ? network.address : `${network.address}/${network.prefix}`;
}
