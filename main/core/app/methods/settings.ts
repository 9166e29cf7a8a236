import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import type { Settings } from '../../../../shared/bridge/results.ts';
import type { AlertSettings } from '../../alerts/types.ts';
import { guard, parse } from '../guard.ts';
import {
  appPreferences,
  notificationsPausedUntil,
  pauseNotifications,
  saveAppPreferences,
} from '../preferences.ts';
import type { Wiring } from '../wiring.ts';

type SettingsMethods = Pick<
  BridgeMethods,
  'getSettings' | 'updateSettings' | 'pauseNotifications' | 'updateAppPreferences'
>;

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Alert thresholds, quiet hours, the sync's rate budget, notifications and start at login. */
export function settingsMethods(w: Wiring): SettingsMethods {
  const { mirror, clock } = w;
  const current = (): Settings => ({
    alerts: mirror.getAlertSettings(),
    sync: w.syncSettings(),
    app: appPreferences(mirror),
    notificationsPausedUntil: notificationsPausedUntil(mirror, clock.now()),
  });
  const changed = (): Settings => {
    w.emit({ type: 'settings_changed' });
    return current();
  };

  return {
    getSettings: () => guard(current),

    updateSettings: (a) =>
      guard(() => {
        const p = parse(args.updateSettingsArgs, a);
        if (p.alerts) mirror.setAlertSettings(defined(p.alerts) as Partial<AlertSettings>);
        if (p.sync) {
          const checked = parse(
            args.syncSettingsSchema.refine((s) => s.headroom < s.ratePerMinute, {
              message: 'headroom must be smaller than the rate limit',
            }),
            { ...w.syncSettings(), ...defined(p.sync) },
          );
          w.saveSyncSettings(checked);
        }
        return changed();
      }),

    pauseNotifications: (a) =>
      guard(async () => {
        const p = parse(args.pauseNotificationsArgs, a);
        pauseNotifications(mirror, p.until === null ? null : new Date(p.until).getTime());
        // Resuming delivers what was held.
        if (p.until === null) await w.deliver();
        return changed();
      }),

    updateAppPreferences: (a) =>
      guard(async () => {
        const p = parse(args.updateAppPreferencesArgs, a);
        if (p.startAtLogin !== undefined) await w.options.shell?.setStartAtLogin?.(p.startAtLogin);
        saveAppPreferences(mirror, defined(p));
        return changed();
      }),
  };
}
