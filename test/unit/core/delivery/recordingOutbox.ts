/**
 * An outbox sender over a mirror whose transports only record what they were given (per channel), on the
 * test's clock, with the lifecycle's sweep before its rounds as production wires it.
 */
import { lifecycleSweep } from '../../../../main/core/delivery/lifecycleRound.ts';
import type { OutgoingMessage } from '../../../../main/core/delivery/message.ts';
import { OutboxSender } from '../../../../main/core/delivery/outboxSender.ts';
import type { ChannelInput } from '../../../../main/core/mirror/deliveryTypes.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';

export interface Sent {
  channel: string;
  message: OutgoingMessage;
}

export function recordingOutbox(mirror: Mirror, clock: { now(): number }) {
  const sent: Sent[] = [];
  const sender = new OutboxSender({
    store: mirror.delivery,
    transportFor: async (c) => ({
      async send(message) {
        sent.push({ channel: c.name, message });
      },
    }),
    now: () => clock.now(),
    alertSettings: () => mirror.getAlertSettings(),
    beforeRound: lifecycleSweep(mirror, () => clock.now()),
  });
  return { sent, sender };
}

/** A generic webhook channel's input (nothing is ever posted: the transports only record). */
export function webhookChannel(
  name: string,
  minSeverity: ChannelInput['minSeverity'] = 'warning',
): ChannelInput {
  return {
    name,
    minSeverity,
    accountId: null,
    holdCriticals: false,
    config: {
      kind: 'webhook',
      format: 'generic',
      urlShown: 'https://h.example',
      plainUrl: 'https://h.example/x',
    },
  };
}

/** "type domain" of each protocol_disconnected alert sent, in order. */
export function disconnections(sent: readonly Sent[]): string[] {
  return sent.flatMap((s) =>
    s.message.alerts
      .filter((a) => a.rule === 'protocol_disconnected')
      .map((a) => `${s.message.type} ${a.domain}`),
  );
}
