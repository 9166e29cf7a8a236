/**
 * Settings → Network's form: how the app reaches the service and the channels (the system's way, always
 * direct, or a proxy given here) and an extra CA file, checked before it is sent, and the way out now in
 * one line.
 */
import { fieldErrorsFromBridge } from './bridgeFieldErrors.ts';
import type { NetworkSettings, NetworkStatus } from '../../../shared/bridge/network.ts';

export interface NetworkForm {
  proxy: NetworkSettings['proxy'];
  proxyUrl: string;
  bypass: string;
  caFile: string;
}
type NetworkField = keyof NetworkForm;
export type NetworkErrors = Partial<Record<NetworkField | 'form', string>>;

export function networkForm(status: NetworkStatus): NetworkForm {
  return { ...status.settings };
}

/** The form as an update, or the errors of the fields that are wrong (nothing is sent then). */
export function validateNetwork(form: NetworkForm): {
  update: NetworkSettings | null;
  errors: NetworkErrors;
} {
  const errors: NetworkErrors = {};
  const proxyUrl = form.proxyUrl.trim();
  if (form.proxy === 'manual') {
    if (!proxyUrl) errors.proxyUrl = 'Give the proxy’s address, e.g. http://proxy.corp.example:3128';
    else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(proxyUrl) && !/^https?:\/\//i.test(proxyUrl))
      errors.proxyUrl = 'The proxy’s address starts with http:// (or https://)';
    else if (/^(https?:\/\/)?[^/@]*@/i.test(proxyUrl))
      errors.proxyUrl =
        'Leave the user name and password out: give a proxy that needs them in HTTPS_PROXY when the app starts';
  }
  if (Object.keys(errors).length > 0) return { update: null, errors };
  return {
    update: { proxy: form.proxy, proxyUrl, bypass: form.bypass.trim(), caFile: form.caFile.trim() },
    errors,
  };
}

export function networkErrorsFromBridge(error: unknown): NetworkErrors {
  const fields: readonly string[] = ['proxy', 'proxyUrl', 'bypass', 'caFile'];
  return fieldErrorsFromBridge<NetworkField>(error, ({ path }) => {
    const first = Array.isArray(path) ? String(path[0]) : String(path ?? '').split('.')[0]!;
    return fields.includes(first) ? (first as NetworkField) : undefined;
  });
}
