import type { Verdict } from './verdict.ts';

/** The tray icon's three states. */
export type TrayStatus = 'ok' | 'warnings' | 'alerts';
/** Every tray state (one icon file each). */
export const TRAY_STATUSES: readonly TrayStatus[] = ['ok', 'warnings', 'alerts'];

/** A domain as the tray reads it. */
export interface TrayDomain {
  fqdn: string;
  verdict: Pick<Verdict, 'level' | 'words'>;
}

/** An open alert that belongs to no domain (the token, a missing scope…). */
export interface TrayAccountAlert {
  severity: 'critical' | 'warning' | 'info';
  title: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the tray says beside the domains' verdicts. */
export interface TrayExtras {
  /** Notifications are paused until then (ISO), or null. */
  pausedUntil?: string | null;
  /** Open alerts a silence or an open maintenance window holds now (counted apart: "3 silenced"). */
  silenced?: number;
  formatTime?: (iso: string) => string;
}

/**
 * The tray icon and tooltip from the same verdicts the window shows: a domain with a problem (or a critical
 * account alert) makes it "alerts", a warning "warnings"; the tooltip names a single domain's problem and
 * counts several. Silenced alerts are still problems (they are shown, only not notified); the tooltip counts
 * them apart, as the window's header does.
 */
export function trayStatus(
  domains: readonly TrayDomain[],
  accountAlerts: readonly TrayAccountAlert[] = [],
  extras: TrayExtras = {},
): { status: TrayStatus; tooltip: string } {
  const {
    pausedUntil = null,
    silenced = 0,
    formatTime = (iso: string) =>
      new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(iso)),
  } = extras;
  const problems = domains.filter((d) => d.verdict.level === 'problem');
  const warnings = domains.filter((d) => d.verdict.level === 'warning');
  const accountCritical = accountAlerts.filter((a) => a.severity === 'critical');
  const accountWarning = accountAlerts.filter((a) => a.severity === 'warning');
  const status: TrayStatus =
    problems.length + accountCritical.length > 0
      ? 'alerts'
      : warnings.length + accountWarning.length > 0
        ? 'warnings'
        : 'ok';
  const parts: string[] = [];
  for (const a of [...accountCritical, ...accountWarning]) parts.push(a.title);
  if (problems.length === 1) parts.push(`${problems[0]!.fqdn}: ${problems[0]!.verdict.words}`);
  else if (problems.length > 1) parts.push(plural(problems.length, 'domain', 'domains') + ' with problems');
  if (warnings.length === 1 && problems.length === 0)
    parts.push(`${warnings[0]!.fqdn}: ${warnings[0]!.verdict.words}`);
  else if (warnings.length > 0) parts.push(plural(warnings.length, 'domain', 'domains') + ' with warnings');
  const counts =
    parts.length > 0
      ? parts.join('; ')
      : domains.length === 0
        ? 'no domains yet'
        : `no problems found on ${plural(domains.length, 'domain', 'domains')}`;
  const held = silenced > 0 ? `; ${silenced} silenced` : '';
  const paused = pausedUntil ? `; notifications paused until ${formatTime(pausedUntil)}` : '';
  return { status, tooltip: `Authwatch — ${counts}${held}${paused}` };
}
