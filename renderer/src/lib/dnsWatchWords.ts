/**
 * The DNS watch in words: a disagreement between DNS and the service as one sentence, and the Settings
 * section's form (cadence, rate cap, resolvers) checked field by field before it is sent.
 */
import { fieldErrorsFromBridge } from './bridgeFieldErrors.ts';
import type { DnsWatchStatus } from '../../../shared/bridge/dnsWatch.ts';
import { protocolLabel } from './format.ts';

/** A disagreement as the bridge gives it (shared/bridge/dnsWatch.ts). */
export interface DisagreementView {
  protocol: string;
  dns: 'present' | 'absent' | 'invalid';
  reason: string | null;
  service: 'connected' | 'disconnected';
  since: string;
}

/** "10:42" today, "Jun 14, 10:42" another day, in the user's zone (or `timeZone`). */
export function clockTime(iso: string, now = Date.now(), timeZone?: string): string {
  const at = new Date(iso);
  const dayOf = (d: Date) => d.toLocaleDateString('en-CA', { timeZone });
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', timeZone });
  if (dayOf(at) === dayOf(new Date(now))) return time;
  return `${at.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone })}, ${time}`;
}

/**
 * "DNS shows a DMARC record; the service reports none since 10:42." — what each side says, and since when
 * they disagree.
 */
export function disagreementWords(d: DisagreementView, now = Date.now(), timeZone?: string): string {
  const label = protocolLabel(d.protocol);
  const dns =
    d.dns === 'present'
      ? `DNS shows a ${label} record`
      : d.dns === 'invalid'
        ? `DNS shows an invalid ${label} record${d.reason ? ` (${d.reason})` : ''}`
        : `DNS shows no ${label} record`;
  const service = d.service === 'connected' ? 'the service reports it connected' : 'the service reports none';
  return `${dns}; ${service} since ${clockTime(d.since, now, timeZone)}.`;
}

/**
 * "DNS unavailable: 10.0.0.53:53 answers that the DNS root itself does not exist (NXDOMAIN). …" — why the
 * watch's answers count for nothing now, and what to do. Said once, on the sync line and the DNS tab.
 */
export function dnsUnavailableWords(u: { reason: string }): string {
  return `DNS unavailable: ${u.reason}. The DNS watch ignores its answers — pick a resolver in Settings → DNS watch.`;
}

/** The Settings form of the watch, as typed. */
export interface DnsWatchForm {
  enabled: boolean;
  /** One resolver a line (or separated by commas or spaces). */
  servers: string;
  floorSeconds: string;
  ceilingSeconds: string;
  ratePerSecond: string;
}

export type DnsWatchField = 'servers' | 'floorSeconds' | 'ceilingSeconds' | 'ratePerSecond' | 'form';
export type DnsWatchErrors = Partial<Record<DnsWatchField, string>>;

/** The form filled from the current settings. */
export function dnsWatchForm(status: DnsWatchStatus): DnsWatchForm {
  const s = status.settings;
  return {
    enabled: s.enabled,
    servers: s.servers.join('\n'),
    floorSeconds: String(s.floorSeconds),
    ceilingSeconds: String(s.ceilingSeconds),
    ratePerSecond: String(s.ratePerSecond),
  };
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** Whether `text` is a resolver as the watch takes it: an IP address with an optional port. */
function resolverProblem(text: string): string | null {
  let host = text.replace(/^dns:\/\//i, '');
  let port: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracketed) [, host = '', port] = bracketed;
  else if (!host.includes('::') && host.split(':').length === 2) [host = '', port] = host.split(':');
  const ip = IPV4.test(host) || (host.includes(':') && /^[0-9a-f:.]+$/i.test(host));
  if (!ip)
    return `${text} is not an IP address (a resolver is asked by its address, e.g. 1.1.1.1 or 10.0.0.53:5353)`;
  if (port !== undefined && (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65_535))
    return `${text}: the port must be 1–65535`;
  return null;
}

/** A whole number within [min, max], or what is wrong with it in words. */
export function whole(text: string, min: number, max: number, what: string): number | string {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(n)) return `${what} must be a whole number`;
  if (n < min || n > max)
    return `${what} must be between ${min.toLocaleString()} and ${max.toLocaleString()}`;
  return n;
}

/** The form checked: the update to send, or an error per field (nothing is sent then). */
export function validateDnsWatch(form: DnsWatchForm): {
  update: {
    enabled: boolean;
    servers: string[];
    floorSeconds: number;
    ceilingSeconds: number;
    ratePerSecond: number;
  } | null;
  errors: DnsWatchErrors;
} {
  const errors: DnsWatchErrors = {};
  const servers = form.servers
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = servers.map(resolverProblem).filter((p): p is string => p !== null);
  if (bad.length > 0) errors.servers = bad[0]!;
  else if (servers.length > 8) errors.servers = 'At most 8 resolvers';
  const floor = whole(form.floorSeconds, 5, 86_400, 'The shortest wait');
  const ceiling = whole(form.ceilingSeconds, 5, 86_400, 'The longest wait');
  const rate = whole(form.ratePerSecond, 1, 10_000, 'The query rate');
  if (typeof floor === 'string') errors.floorSeconds = floor;
  if (typeof ceiling === 'string') errors.ceilingSeconds = ceiling;
  else if (typeof floor === 'number' && ceiling < floor)
    errors.ceilingSeconds = `The longest wait must not be shorter than the shortest (${floor} s)`;
  if (typeof rate === 'string') errors.ratePerSecond = rate;
  // A value that is not a number has its error above; the checks of type tell the compiler so too.
  if (Object.keys(errors).length > 0 || typeof floor !== 'number' || typeof ceiling !== 'number')
    return { update: null, errors };
  if (typeof rate !== 'number') return { update: null, errors };
  return {
    update: {
      enabled: form.enabled,
      servers,
      floorSeconds: floor,
      ceilingSeconds: ceiling,
      ratePerSecond: rate,
    },
    errors,
  };
}

const FIELD_OF_PATH: Record<string, DnsWatchField> = {
  servers: 'servers',
  floorSeconds: 'floorSeconds',
  ceilingSeconds: 'ceilingSeconds',
  ratePerSecond: 'ratePerSecond',
};

/** A refusal from the bridge (zod issues with paths) as errors on the fields they name. */
export function dnsWatchErrorsFromBridge(error: unknown): DnsWatchErrors {
  return fieldErrorsFromBridge<DnsWatchField>(
    error,
    ({ path }) => FIELD_OF_PATH[Array.isArray(path) ? String(path[0]) : String(path ?? '').split('.')[0]!],
  );
}

/** The watch's state now in one line: pace, records, freshness. */
export function dnsWatchPace(status: DnsWatchStatus): string {
  if (!status.settings.enabled) return 'Off: only the service’s scans tell of record changes.';
  if (!status.running && status.paceAt === null)
    return 'Not running in this window: the desktop app or “authwatch sync --watch” runs it.';
  const qps =
    status.queriesPerSecond < 10 ? status.queriesPerSecond.toFixed(1) : status.queriesPerSecond.toFixed(0);
  const round =
    status.roundSeconds > 0
      ? `; a full round of every record takes ${Math.round(status.roundSeconds)} s at the cap`
      : '';
  return `${qps} queries a second now (at most ${status.settings.ratePerSecond} to each resolver), ${status.records.toLocaleString()} records${round}.`;
}
