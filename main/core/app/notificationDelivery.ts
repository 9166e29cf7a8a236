import type { Alert, Mirror } from '../mirror/types.ts';

/** Many alerts told in one notification: how many, how many critical, and since when (the oldest's ISO time). */
export interface AlertSummary {
  count: number;
  critical: number;
  since: string;
}

/** Where alerts go: a native notification, a tray badge, a terminal line. */
export interface Notifier {
  /** Delivery-log channel name (default "notifier"). */
  readonly channel?: string;
  /** Shows the alert; a rejection leaves it pending for the next delivery round. */
  notify(alert: Alert): void | Promise<void>;
  /**
   * Shows one notification for many pending alerts ("37 alerts while you were away — open Alerts"); a
   * rejection leaves them all pending. Absent: each alert is notified on its own, however many wait.
   */
  notifySummary?(summary: AlertSummary): void | Promise<void>;
}

/** How a round paces itself (tests pass a recording yield and small numbers). */
export interface DeliveryPacing {
  /** Alerts marked delivered per mirror transaction (one fsync each). Default 200. */
  batchSize?: number;
  /** More pending than this at once (a long absence) are summarised in one notification. Default 10. */
  summaryAbove?: number;
  /** Lets the event loop serve what waits (a window's first bridge calls) before each batch. */
  yieldToLoop?: () => Promise<void>;
}

/** What a round tells its owner. */
export interface DeliveryHooks {
  /** An alert was shown on its own. */
  onDelivered(alert: Alert): void;
  /** Pending alerts were shown as one summary (and are all marked delivered). */
  onSummarized(summary: AlertSummary): void;
  /** The notifier failed; these alerts stay pending. */
  onFailure(alertIds: number[], error: unknown): void;
}

const setImmediateYield = () => new Promise<void>((resolve) => setImmediate(resolve));

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Delivers the mirror's pending alerts and records each delivery. A round first yields to the event loop,
 * so a window that just connected has its first screen answered before its backlog is worked through; it
 * then marks alerts delivered in batches, one mirror transaction per batch, yielding between batches (one
 * fsync per alert blocked the host for seconds with hundreds waiting). More than `summaryAbove` pending at
 * once — the app opened after a long time away — become one summary notification rather than hundreds.
 * An alert is marked delivered only after its notification (or the summary counting it) was shown, and
 * once (a round marks only what it read as pending): a round cut short leaves the rest pending for the
 * next, never lost, never logged twice. Rounds are serialized so two writes finishing together never
 * notify an alert twice. `mode` holds delivery while notifications are paused, or records alerts as
 * silenced (channel "silenced", never shown) while they are turned off.
 */
export function createDelivery(
  mirror: Mirror,
  notifier: Notifier | undefined,
  now: () => number,
  hooks: DeliveryHooks,
  mode: () => 'deliver' | 'hold' | 'silence' = () => 'deliver',
  pacing: DeliveryPacing = {},
): () => Promise<void> {
  const batchSize = pacing.batchSize ?? 200;
  const summaryAbove = pacing.summaryAbove ?? 10;
  const yieldToLoop = pacing.yieldToLoop ?? setImmediateYield;
  const markInBatches = async (alerts: readonly Alert[], channel: string) => {
    for (const batch of chunks(alerts, batchSize)) {
      await yieldToLoop();
      mirror.markDelivered(
        batch.map((a) => a.id),
        channel,
        now(),
      );
    }
  };
  let chain: Promise<void> = Promise.resolve();
  const round = async () => {
    if (!notifier) return;
    if (mode() === 'hold') return;
    // What arrived with the connect (the overview call) is served before the backlog is read.
    await yieldToLoop();
    const current = mode();
    if (current === 'hold') return;
    const pending = mirror.pendingDeliveries(now());
    if (pending.length === 0) return;
    if (current === 'silence') return markInBatches(pending, 'silenced');
    const channel = notifier.channel ?? 'notifier';
    if (pending.length > summaryAbove && notifier.notifySummary) {
      const summary: AlertSummary = {
        count: pending.length,
        critical: pending.filter((a) => a.severity === 'critical').length,
        since: pending.reduce(
          (min, a) => (a.firstSeenAt < min ? a.firstSeenAt : min),
          pending[0]!.firstSeenAt,
        ),
      };
      try {
        await notifier.notifySummary(summary);
      } catch (error) {
        hooks.onFailure(
          pending.map((a) => a.id),
          error,
        );
        return;
      }
      await markInBatches(pending, channel);
      hooks.onSummarized(summary);
      return;
    }
    for (const batch of chunks(pending, batchSize)) {
      await yieldToLoop();
      const shown: Alert[] = [];
      for (const alert of batch) {
        try {
          await notifier.notify(alert);
          shown.push(alert);
        } catch (error) {
          hooks.onFailure([alert.id], error);
        }
      }
      if (shown.length === 0) continue;
      mirror.markDelivered(
        shown.map((a) => a.id),
        channel,
        now(),
      );
      for (const alert of shown) hooks.onDelivered(alert);
    }
  };
  return () => {
    chain = chain.then(round, round);
    return chain;
  };
}
