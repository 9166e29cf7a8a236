import type { Channel, ChannelConfig, DeliveryStore } from '../mirror/deliveryTypes.ts';
import type { ChannelSecrets } from './channelSecrets.ts';
import { redactedUrl, urlCarriesSecret } from './urlSecrets.ts';

function carriesSecret(href: string): boolean {
  try {
    return urlCarriesSecret(new URL(href));
  } catch {
    return false;
  }
}

/**
 * A channel saved before secret-bearing URLs went to the secret store (a generic webhook's or Alertmanager's
 * `?token=` kept in the mirror) has its URL moved there when it is next used, and the mirror keeps only what
 * may be shown. Where no store keeps it, the channel stays as it was (and still works).
 */
export async function moveUrlSecret(
  channel: Channel,
  store: DeliveryStore,
  secrets: ChannelSecrets,
): Promise<Channel> {
  const c = channel.config;
  const plain =
    c.kind === 'webhook' ? c.plainUrl : c.kind === 'alertmanager' && !c.secretUrl ? c.url : undefined;
  if (!plain || !carriesSecret(plain)) return channel;
  if (!(await secrets.save(channel.id, 'url', plain)).stored) return channel;
  let config: ChannelConfig;
  if (c.kind === 'webhook') {
    const { plainUrl: _moved, ...rest } = c;
    config = { ...rest, url: { stored: true } };
  } else config = { ...c, url: redactedUrl(plain), secretUrl: { stored: true } } as ChannelConfig;
  return store.updateChannel(channel.id, {
    name: channel.name,
    minSeverity: channel.minSeverity,
    accountId: channel.accountId,
    holdCriticals: channel.holdCriticals,
    config,
  });
}
