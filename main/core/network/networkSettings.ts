import {
  DEFAULT_NETWORK_SETTINGS,
  networkSettingsSchema,
  type NetworkSettings,
} from '../../../shared/bridge/network.ts';
import type { Mirror } from '../mirror/types.ts';

const NETWORK_SETTINGS_KEY = 'network';

/** Settings → Network as stored (a bad stored value falls back to the defaults: the system's way out). */
export function readNetworkSettings(mirror: Pick<Mirror, 'getSetting'>): NetworkSettings {
  const stored = mirror.getSetting(NETWORK_SETTINGS_KEY);
  const parsed = networkSettingsSchema.safeParse({
    ...DEFAULT_NETWORK_SETTINGS,
    ...(stored && typeof stored === 'object' ? stored : {}),
  });
  return parsed.success ? parsed.data : DEFAULT_NETWORK_SETTINGS;
}

export function saveNetworkSettings(mirror: Pick<Mirror, 'setSetting'>, settings: NetworkSettings): void {
  mirror.setSetting(NETWORK_SETTINGS_KEY, settings);
}
