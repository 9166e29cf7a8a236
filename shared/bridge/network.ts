/** Settings → Network over the bridge: how the app reaches the internet, and what it trusts. */
import { z } from 'zod';

/**
 * `system`: the desktop app asks the operating system (proxy, PAC/WPAD, trust store); headless and the
 * browser host read HTTPS_PROXY / HTTP_PROXY / NO_PROXY. `none`: always direct, whatever the environment
 * says. `manual`: the proxy at `proxyUrl`, except for the hosts in `bypass` (NO_PROXY's syntax).
 */
export const PROXY_MODES = ['system', 'none', 'manual'] as const;

export const networkSettingsSchema = z.object({
  proxy: z.enum(PROXY_MODES),
  /** `http://host:port`; the manual mode's proxy. */
  proxyUrl: z.string().trim().max(2048),
  /** Hosts, domains, `host:port`, IP addresses and CIDR blocks that go direct, comma separated. */
  bypass: z.string().trim().max(4096),
  /** A PEM file of extra certificate authorities trusted beside the built-in ones ('' for none). */
  caFile: z.string().trim().max(4096),
});
export type NetworkSettings = z.infer<typeof networkSettingsSchema>;

export const DEFAULT_NETWORK_SETTINGS: NetworkSettings = {
  proxy: 'system',
  proxyUrl: '',
  bypass: '',
  caFile: '',
};

export const updateNetworkArgs = networkSettingsSchema.partial();

/** The settings and what else decides the way out, for the Network screen. */
export const networkStatusSchema = z.object({
  settings: networkSettingsSchema,
  /** What `system` means in this shell. */
  system: z.enum(['operating system', 'environment']),
  /** The environment's proxies as they apply here, credentials left out ('' when unset). */
  environment: z.object({ httpsProxy: z.string(), httpProxy: z.string(), noProxy: z.string() }),
  /** The extra CA file given by --ca-file or AUTHWATCH_EXTRA_CA (trusted too), or null. */
  caFileFromStart: z.string().nullable(),
  /** Why the settings cannot be used as they are (an unreadable CA file), or null. */
  problem: z.string().nullable(),
});
export type NetworkStatus = z.infer<typeof networkStatusSchema>;

/**
 * The network layer's own sentence inside an error message (a refusing proxy, a login it asks for, an
 * untrusted certificate, an unreadable CA file), or null: a screen shows it instead of "cannot be reached".
 */
export function networkSentence(message: string): string | null {
  const found =
    /(The proxy[ ’'].*|The certificate (?:of|presented for) .*|The CA file .*|The name \S+ could not be found.*)$/s.exec(
      message,
    );
  return found ? found[1]!.trim() : null;
}

/** Where requests go now, in one line. */
export function networkNow(status: NetworkStatus): string {
  const s = status.settings;
  if (s.proxy === 'none') return 'Every request goes direct, whatever the environment says.';
  if (s.proxy === 'manual')
    return `Requests go through the proxy at ${s.proxyUrl}${s.bypass ? `, except to ${s.bypass}` : ''}.`;
  if (status.system === 'operating system')
    return 'Requests go the way this computer’s network settings say (proxy, PAC/WPAD), trusting its certificate store.';
  const { httpsProxy, httpProxy, noProxy } = status.environment;
  if (!httpsProxy && !httpProxy) return 'Requests go direct: no HTTPS_PROXY or HTTP_PROXY is set.';
  const via = [httpsProxy && `https through ${httpsProxy}`, httpProxy && `http through ${httpProxy}`]
    .filter(Boolean)
    .join(', ');
  return `From the environment: ${via}${noProxy ? `; direct to ${noProxy}` : ''}.`;
}
