import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import type { ChannelView } from '../../../../shared/bridge/channels.ts';
import {
  channelRef,
  removeChannelArgs,
  saveChannelArgs,
  setMetricsArgs,
} from '../../../../shared/bridge/channels.ts';
import type { ChannelDraft } from '../../delivery/channelDraft.ts';
import { describeChannel } from '../../delivery/channelWords.ts';
import { DeliveryError } from '../../delivery/deliveryError.ts';
import type { MetricsSwitch } from '../../delivery/metricsSwitch.ts';
import type { Channel } from '../../mirror/deliveryTypes.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';

type ChannelMethods = Pick<
  BridgeMethods,
  'listChannels' | 'saveChannel' | 'testChannel' | 'removeChannel' | 'getMetricsSetting' | 'setMetricsSetting'
>;

/** A channel for the renderer: no secret, only whether one is kept. */
function channelView(c: Channel): ChannelView {
  const k = c.config;
  const form: ChannelView['form'] =
    k.kind === 'email'
      ? {
          smtp: `${k.tls === 'implicit' ? 'smtps' : 'smtp'}://${k.user ? `${encodeURIComponent(k.user)}@` : ''}${k.host}:${k.port}${k.tls === 'none' ? '?tls=none' : ''}`,
          from: k.from,
          to: k.to,
          hasSecret: k.password !== undefined,
        }
      : k.kind === 'webhook'
        ? {
            format: k.format,
            url: k.plainUrl ?? '',
            hasSecret: k.url !== undefined || k.secret !== undefined,
          }
        : // A URL kept in the secret store is not shown back: the form leaves it empty ("kept").
          {
            url: k.secretUrl ? '' : k.url,
            resendSeconds: k.resendSeconds,
            hasSecret: k.secretUrl !== undefined,
          };
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    target: describeChannel(c),
    minSeverity: c.minSeverity,
    accountId: c.accountId,
    holdCriticals: c.holdCriticals,
    queued: c.queued,
    lastSuccessAt: c.lastSuccessAt,
    lastError: c.lastError,
    lastErrorAt: c.lastErrorAt,
    form,
  };
}

/** A delivery problem is the user's to fix: it goes back as invalid arguments, in words. */
async function delivering<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DeliveryError) throw new AuthwatchError('invalid_arguments', error.message);
    throw error;
  }
}

/** Settings → Notifications: channels (add, edit, test, remove, their state) and the metrics switch. */
export function channelMethods(w: Wiring, metrics: MetricsSwitch): ChannelMethods {
  const service = w.delivery.channels;
  const changed = () => w.emit({ type: 'settings_changed' });
  return {
    listChannels: () => guard(() => service.list().map(channelView)),
    saveChannel: (a) =>
      guard(() =>
        delivering(async () => {
          const { id, draft } = parse(saveChannelArgs, a);
          const saved =
            id === undefined
              ? await service.add(draft as ChannelDraft)
              : await service.update(id, draft as ChannelDraft);
          changed();
          return { channel: channelView(saved.channel), notices: saved.notices };
        }),
      ),
    testChannel: (a) =>
      guard(async () => {
        const { id } = parse(channelRef, a);
        const result = await delivering(() => service.test(id));
        changed();
        return result;
      }),
    removeChannel: (a) =>
      guard(async () => {
        const { id, withDigests } = parse(removeChannelArgs, a);
        const result = await delivering(() => service.remove(id, { withDigests: withDigests === true }));
        changed();
        return { removed: result.removed, digestsStopped: result.digests.map((d) => d.account) };
      }),
    getMetricsSetting: () => guard(() => metrics.state()),
    setMetricsSetting: (a) =>
      guard(async () => {
        const { enabled, port } = parse(setMetricsArgs, a);
        const state = await metrics.set(enabled, port);
        changed();
        return state;
      }),
  };
}
