import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import {
  networkSettingsSchema,
  updateNetworkArgs,
  type NetworkStatus,
} from '../../../../shared/bridge/network.ts';
import { readCaFile } from '../../network/extraCa.ts';
import { readNetworkSettings, saveNetworkSettings } from '../../network/networkSettings.ts';
import { parseProxyUrl } from '../../network/proxyRoute.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';

type NetworkMethods = Pick<BridgeMethods, 'networkStatus' | 'updateNetwork'>;

/** Settings a request can go out with: a proxy address that parses, a CA file that reads. */
const usableSettings = networkSettingsSchema.superRefine((s, ctx) => {
  if (s.proxy === 'manual') {
    if (!s.proxyUrl) ctx.addIssue({ code: 'custom', path: ['proxyUrl'], message: 'give the proxy address' });
    else {
      try {
        const { url } = parseProxyUrl(s.proxyUrl, 'Settings → Network');
        // Settings are stored in plain SQLite: a proxy password does not belong there.
        if (url.username || url.password)
          ctx.addIssue({
            code: 'custom',
            path: ['proxyUrl'],
            message:
              'leave the user name and password out; a proxy that needs them is given in HTTPS_PROXY ' +
              '(http://user:password@host:port) when the app starts',
          });
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: ['proxyUrl'], message: (error as Error).message });
      }
    }
  }
  if (s.caFile) {
    try {
      readCaFile(s.caFile, 'Settings → Network');
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['caFile'], message: (error as Error).message });
    }
  }
});

/** Settings → Network: the way out (system / none / manual proxy) and the extra certificate authorities. */
export function networkMethods(w: Wiring): NetworkMethods {
  const status = (): NetworkStatus =>
    w.options.network?.status() ?? {
      settings: readNetworkSettings(w.mirror),
      system: 'environment',
      environment: { httpsProxy: '', httpProxy: '', noProxy: '' },
      caFileFromStart: null,
      problem: null,
    };
  return {
    networkStatus: () => guard(status),
    updateNetwork: (a) =>
      guard(() => {
        const p = parse(updateNetworkArgs, a);
        const next = parse(usableSettings, { ...readNetworkSettings(w.mirror), ...p });
        saveNetworkSettings(w.mirror, next);
        w.emit({ type: 'settings_changed' });
        return status();
      }),
  };
}
