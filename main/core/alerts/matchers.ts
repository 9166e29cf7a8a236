import type { Severity } from './types.ts';

/**
 * What silences, maintenance windows and routes select alerts by (Alertmanager's equality matchers, in this
 * app's words). Every matcher given must hold; none given selects every alert.
 */
export interface AlertMatchers {
  /** Local account id. */
  accountId?: number;
  /** The domain group's name as the service names it (case-blind). */
  group?: string;
  /** The domain's name (case-blind). */
  domain?: string;
  protocol?: string;
  rule?: string;
  /** Any of these rules (an edit's own silence: the alerts that edit is expected to cause). */
  rules?: string[];
  /** Any of these severities. */
  severities?: Severity[];
}

/** The facts of one alert matchers read (the group from the domain's stored row). */
export interface AlertFacts {
  accountId: number;
  group: string | null;
  domain: string | null;
  protocol: string | null;
  rule: string;
  severity: Severity;
  /**
   * The delivery channel the alert is about (a channel failing): it is never sent there — a channel that is
   * down would only hear of its own outage late, once it is mended. Absent or null: no channel.
   */
  aboutChannelId?: number | null;
}

const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** True when every matcher given holds for the alert. */
export function matchesAlert(m: AlertMatchers, f: AlertFacts): boolean {
  if (m.accountId !== undefined && m.accountId !== f.accountId) return false;
  if (m.group !== undefined && !same(f.group, m.group)) return false;
  if (m.domain !== undefined && !same(f.domain, m.domain)) return false;
  if (m.protocol !== undefined && !same(f.protocol, m.protocol)) return false;
  if (m.rule !== undefined && m.rule !== f.rule) return false;
  if (m.rules !== undefined && !m.rules.includes(f.rule)) return false;
  if (m.severities !== undefined && !m.severities.includes(f.severity)) return false;
  return true;
}

/** True when no matcher is given (selects everything). */
export function matchesEverything(m: AlertMatchers): boolean {
  return (
    m.accountId === undefined &&
    m.group === undefined &&
    m.domain === undefined &&
    m.protocol === undefined &&
    m.rule === undefined &&
    m.rules === undefined &&
    (m.severities === undefined || m.severities.length === 3)
  );
}

/** The matchers in words: "domain acme.example, rule spf_removed". */
export function describeMatchers(m: AlertMatchers, accountLabel?: (id: number) => string): string {
  const parts: string[] = [];
  if (m.accountId !== undefined) parts.push(`account ${accountLabel?.(m.accountId) ?? m.accountId}`);
  if (m.group !== undefined) parts.push(`group ${m.group}`);
  if (m.domain !== undefined) parts.push(`domain ${m.domain}`);
  if (m.protocol !== undefined) parts.push(`protocol ${m.protocol}`);
  if (m.rule !== undefined) parts.push(`rule ${m.rule}`);
  if (m.rules !== undefined) parts.push(`rule ${m.rules.join('|')}`);
  if (m.severities !== undefined) parts.push(`severity ${m.severities.join('|')}`);
  return parts.length === 0 ? 'every alert' : parts.join(', ');
}
