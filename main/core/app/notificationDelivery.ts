import type { Alert, Mirror } from '../mirror/types.ts';

/** Where alerts go: a native notification, a tray badge, a terminal line. */
export interface Notifier {
  /** Delivery-log channel name (default "notifier"). */
  readonly channel?: string;
  /** Shows the alert; a rejection leaves it pending for the next delivery round. */
  notify(alert: Alert): void | Promise<void>;
}

/**
 * Delivers the mirror's pending alerts one by one and records each delivery. Rounds are serialized so two
 * writes finishing together never notify an alert twice. `mode` holds delivery while notifications are
 * paused, or records alerts as silenced (channel "silenced", never shown) while they are turned off.
 */
export function createDelivery(
  mirror: Mirror,
  notifier: Notifier | undefined,
  now: () => number,
  onDelivered: (alert: Alert) => void,
  onFailure: (alert: Alert, error: unknown) => void,
  mode: () => 'deliver' | 'hold' | 'silence' = () => 'deliver',
): () => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  const round = async () => {
    if (!notifier) return;
    const current = mode();
    if (current === 'hold') return;
    if (current === 'silence') {
      const pending = mirror.pendingDeliveries(now());
      if (pending.length > 0)
        mirror.markDelivered(
          pending.map((a) => a.id),
          'silenced',
          now(),
        );
      return;
    }
    const channel = notifier.channel ?? 'notifier';
    for (const alert of mirror.pendingDeliveries(now())) {
      try {
        await notifier.notify(alert);
      } catch (error) {
        onFailure(alert, error);
        continue;
      }
      mirror.markDelivered([alert.id], channel, now());
      onDelivered(alert);
    }
  };
  return () => {
    chain = chain.then(round, round);
    return chain;
  };
}
