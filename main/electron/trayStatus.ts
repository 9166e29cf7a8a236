import type { Alert } from '../../shared/bridge/results.ts';

/** The tray icon's three states. */
export type TrayStatus = 'ok' | 'warnings' | 'alerts';
export const TRAY_STATUSES: readonly TrayStatus[] = ['ok', 'warnings', 'alerts'];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The icon and tooltip for the open alerts: critical ones make it "alerts", warnings "warnings". */
export function trayStatus(
  openAlerts: readonly Pick<Alert, 'severity'>[],
  pausedUntil: string | null = null,
  formatTime: (iso: string) => string = (iso) =>
    new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(iso)),
): { status: TrayStatus; tooltip: string } {
  const critical = openAlerts.filter((a) => a.severity === 'critical').length;
  const warnings = openAlerts.filter((a) => a.severity === 'warning').length;
  const status: TrayStatus = critical > 0 ? 'alerts' : warnings > 0 ? 'warnings' : 'ok';
  const counts =
    critical + warnings === 0
      ? 'all good'
      : [critical ? plural(critical, 'alert') : '', warnings ? plural(warnings, 'warning') : '']
          .filter(Boolean)
          .join(', ');
  const paused = pausedUntil ? `; notifications paused until ${formatTime(pausedUntil)}` : '';
  return { status, tooltip: `Authwatch — ${counts}${paused}` };
}
