import { randomUUID } from 'node:crypto';
import { inQuietHours } from '../alerts/quietHours.ts';
import type { AlertSettings } from '../alerts/types.ts';
import type { Channel, DeliveryStore, OutboxRow } from '../mirror/deliveryTypes.ts';
import { errorWords } from './deliveryError.ts';
import { messageAlert, type OutgoingMessage } from './message.ts';
import { withinDeadline } from './sendDeadline.ts';
import type { ChannelTransport } from './transport.ts';

/** What the sender needs; everything with a clock or a socket is passed in. */
export interface OutboxSenderOptions {
  store: DeliveryStore;
  transportFor(channel: Channel): Promise<ChannelTransport>;
  now(): number;
  alertSettings(): AlertSettings;
  random?: () => number;
  /** Deadline of one send (default 20 s): a channel that hangs is given up on for this attempt. */
  sendTimeoutMs?: number;
  /**
   * Alerts are grouped like Alertmanager's group_wait: new ones go out once none came for gatherQuietMs
   * (default 20 s) — or, in a storm that keeps coming, once the oldest waited maxHoldMs (default 5 min).
   */
  gatherQuietMs?: number;
  maxHoldMs?: number;
  /** First retry delay (default 30 s), doubled per attempt up to retryMaxMs (default 1 h). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How often queued work is looked at when nothing kicks the sender (default 15 s). */
  pollMs?: number;
  /** Runs before every round: queues what became due meanwhile (a silence that ended, an escalation). */
  beforeRound?(): void;
  onDelivered?(channel: Channel, message: OutgoingMessage): void;
  onFailed?(channel: Channel, words: string): void;
}

/** What one round did, over every channel. */
export interface RoundResult {
  sent: number;
  failed: number;
  /** Deliveries kept back: quiet hours, a pass still running, a channel backing off. */
  held: number;
}

export interface RoundOptions {
  /** Try channels that are backing off (sync --once before it exits). */
  ignoreBackoff?: boolean;
  /** Send new alerts now rather than wait for more of the same storm. */
  ignoreGather?: boolean;
  deadline?: number;
}

const EMPTY: RoundResult = { sent: 0, failed: 0, held: 0 };

/**
 * Works through the outbox: groups what one sync pass raised into one message per channel (raised and
 * resolved apart), sends with a deadline, marks delivered at once (never sent twice once it succeeded),
 * and backs off a failing channel without holding up the others. Nothing here is awaited by the sync:
 * writes only kick it.
 */
export class OutboxSender {
  private readonly o: Required<
    Pick<
      OutboxSenderOptions,
      'sendTimeoutMs' | 'gatherQuietMs' | 'maxHoldMs' | 'retryBaseMs' | 'retryMaxMs' | 'pollMs' | 'random'
    >
  > &
    OutboxSenderOptions;
  private holds = 0;
  private readonly busy = new Map<number, Promise<RoundResult>>();
  /** A failing channel is not tried again before this (epoch ms); persisted per row as next_attempt_at. */
  private readonly backoffUntil = new Map<number, number>();
  private readonly lastResend = new Map<number, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private kicked: ReturnType<typeof setTimeout> | null = null;
  /** A round when the earliest gathering group is due to go (rather than at the next poll). */
  private wake: { at: number; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(options: OutboxSenderOptions) {
    this.o = {
      sendTimeoutMs: 20_000,
      gatherQuietMs: 20_000,
      maxHoldMs: 5 * 60_000,
      retryBaseMs: 30_000,
      retryMaxMs: 60 * 60_000,
      pollMs: 15_000,
      random: Math.random,
      ...options,
    };
  }

  /**
   * Runs `work` (a whole sync pass: `sync --once`) with new deliveries held back until it ends, so what it
   * raises goes out as one message per channel.
   */
  async hold<T>(work: Promise<T>): Promise<T> {
    this.holds++;
    try {
      return await work;
    } finally {
      this.holds--;
      this.kick();
    }
  }

  /** Something may be ready: look soon (never awaited by the caller). */
  kick(): void {
    if (this.kicked) return;
    this.kicked = setTimeout(() => {
      this.kicked = null;
      void this.round().catch(() => undefined);
    }, 0);
    this.kicked.unref?.();
  }

  /** Starts looking at the outbox every pollMs (retries, quiet hours ending, Alertmanager re-sends). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.round().catch(() => undefined), this.o.pollMs);
    this.timer.unref?.();
    this.kick();
  }

  /** Stops the timers and waits for sends in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.kicked) clearTimeout(this.kicked);
    this.kicked = null;
    if (this.wake) clearTimeout(this.wake.timer);
    this.wake = null;
    await Promise.allSettled([...this.busy.values()]);
  }

  /**
   * Sends what is ready now and retries failures every 2 s until everything that is not held went out or
   * `timeoutMs` passed (`sync --once` before it exits). Resolves with what is still queued.
   */
  async flush(timeoutMs: number): Promise<RoundResult> {
    const deadline = Date.now() + timeoutMs;
    const options = { ignoreBackoff: true, ignoreGather: true, deadline };
    let last = await this.round(options);
    while (last.failed > 0 && Date.now() + 2_000 < deadline) {
      await new Promise((r) => setTimeout(r, 2_000));
      last = await this.round(options);
    }
    return last;
  }

  /** One look at every channel; channels work side by side, each one round at a time. */
  async round(options: RoundOptions = {}): Promise<RoundResult> {
    this.o.beforeRound?.();
    const channels = this.o.store.listChannels();
    const results = await Promise.all(
      channels.map((channel) => {
        const running = this.busy.get(channel.id);
        if (running) return running.then(() => this.runChannel(channel, options));
        return this.runChannel(channel, options);
      }),
    );
    return results.reduce(
      (a, b) => ({ sent: a.sent + b.sent, failed: a.failed + b.failed, held: a.held + b.held }),
      EMPTY,
    );
  }

  private runChannel(channel: Channel, options: RoundOptions): Promise<RoundResult> {
    const run = this.channelRound(channel, options).finally(() => {
      if (this.busy.get(channel.id) === run) this.busy.delete(channel.id);
    });
    this.busy.set(channel.id, run);
    return run;
  }

  private async channelRound(channel: Channel, options: RoundOptions): Promise<RoundResult> {
    const now = this.o.now();
    const nowIso = new Date(now).toISOString();
    const result: RoundResult = { sent: 0, failed: 0, held: 0 };
    const rows = this.o.store.due(channel.id, options.ignoreBackoff ? '9999' : nowIso);
    const needsResend =
      channel.kind === 'alertmanager' &&
      channel.config.kind === 'alertmanager' &&
      now - (this.lastResend.get(channel.id) ?? -Infinity) >= channel.config.resendSeconds * 1000;
    if (rows.length === 0 && !needsResend) return result;
    if (!options.ignoreBackoff && (this.backoffUntil.get(channel.id) ?? 0) > now) {
      result.held += rows.length;
      return result;
    }

    const batches = this.batches(channel, rows, now, result, options.ignoreGather === true);
    if (batches.length === 0 && !needsResend) return result;

    let transport: ChannelTransport;
    try {
      transport = await this.o.transportFor(channel);
    } catch (error) {
      this.fail(channel, batches.flat(), errorWords(error), now, result);
      return result;
    }
    try {
      for (const batch of batches) {
        const message: OutgoingMessage = {
          id: batch[0]!.batchId!,
          type: batch[0]!.type,
          alerts: batch.map((r) => messageAlert(r.alert, r.accountLabel, r.eventId, r.ack, r.silence)),
        };
        try {
          await withinDeadline(this.sendMs(options.deadline), (signal) => transport.send(message, signal));
        } catch (error) {
          // The channel is failing: this batch and the rest wait for the backoff.
          const rest = batches.slice(batches.indexOf(batch)).flat();
          this.fail(channel, rest, errorWords(error), now, result);
          return result;
        }
        const at = new Date(this.o.now()).toISOString();
        this.o.store.markDelivered(
          batch.map((r) => r.id),
          at,
        );
        this.o.store.noteChannelResult(channel.id, at, null);
        this.backoffUntil.delete(channel.id);
        result.sent += batch.length;
        this.o.onDelivered?.(channel, message);
      }
      if (needsResend && transport.resend) {
        const open = this.o.store.openDelivered(channel.id);
        try {
          const alerts = open.map((o) => messageAlert(o.alert, o.accountLabel, o.eventId, o.ack));
          await withinDeadline(this.sendMs(options.deadline), (signal) => transport.resend!(alerts, signal));
          this.lastResend.set(channel.id, now);
          if (open.length > 0)
            this.o.store.noteChannelResult(channel.id, new Date(this.o.now()).toISOString(), null);
        } catch (error) {
          const words = errorWords(error);
          this.o.store.noteChannelResult(channel.id, nowIso, words);
          this.o.onFailed?.(channel, words);
        }
      }
    } finally {
      transport.close?.();
    }
    return result;
  }

  /**
   * The messages of this round, in outbox order: batches fixed earlier (retries) as they were; new rows
   * grouped by event type, except rows held by quiet hours or by a pass still running.
   */
  private batches(
    channel: Channel,
    rows: OutboxRow[],
    now: number,
    result: RoundResult,
    ignoreGather: boolean,
  ): OutboxRow[][] {
    const settings = this.o.alertSettings();
    const quiet = inQuietHours(now, settings.quietHours, settings.timeZone);
    const fixed = new Map<string, OutboxRow[]>();
    const fresh = new Map<string, OutboxRow[]>();
    for (const row of rows) {
      if (row.batchId) {
        fixed.set(row.batchId, [...(fixed.get(row.batchId) ?? []), row]);
        continue;
      }
      // Criticals pass through quiet hours unless the user chose otherwise: for every channel (Settings, "Hold
      // critical alerts too") or for this one (--hold-criticals).
      const holdsCriticals = settings.quietHoldsCriticals || channel.holdCriticals;
      const heldByQuiet = quiet && (row.alert.severity !== 'critical' || holdsCriticals);
      if (heldByQuiet || this.holds > 0) {
        result.held++;
        continue;
      }
      const key = `${row.type} ${row.groupWaitSeconds ?? ''}`;
      fresh.set(key, [...(fresh.get(key) ?? []), row]);
    }
    for (const group of fresh.values()) {
      const due = this.gatheredAt(group);
      if (!ignoreGather && now < due) {
        result.held += group.length;
        this.wakeAt(due, now);
        continue;
      }
      const batchId = group.length === 1 ? group[0]!.eventId : randomUUID();
      this.o.store.assignBatch(
        group.map((r) => r.id),
        batchId,
      );
      for (const r of group) r.batchId = batchId;
      fixed.set(batchId, group);
    }
    return [...fixed.values()].sort((a, b) => a[0]!.id - b[0]!.id);
  }

  /**
   * When a group of new rows goes. A route's own group wait (Alertmanager's group_wait): its first message
   * waits that long from the oldest row, whatever comes meanwhile going with it. Otherwise the sender's
   * gathering: once none came for gatherQuietMs, or once the oldest waited maxHoldMs in a storm that keeps coming.
   */
  private gatheredAt(group: readonly OutboxRow[]): number {
    const oldest = Math.min(...group.map((r) => Date.parse(r.createdAt)));
    const wait = group[0]!.groupWaitSeconds;
    if (wait !== null) return oldest + wait * 1000;
    const newest = Math.max(...group.map((r) => Date.parse(r.createdAt)));
    return Math.min(newest + this.o.gatherQuietMs, oldest + this.o.maxHoldMs);
  }

  /**
   * Looks again when a gathering group becomes due, so it goes when its quiet time ends rather than up to a
   * poll later. Only while started (start() … stop()); the delay is measured on the sender's clock.
   */
  private wakeAt(at: number, now: number): void {
    if (!this.timer) return;
    if (this.wake && this.wake.at <= at) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = setTimeout(
      () => {
        this.wake = null;
        void this.round().catch(() => undefined);
      },
      Math.max(0, at - now) + 10,
    );
    timer.unref?.();
    this.wake = { at, timer };
  }

  private fail(channel: Channel, rows: OutboxRow[], words: string, now: number, result: RoundResult): void {
    const attempts = Math.max(0, ...rows.map((r) => r.attempts)) + 1;
    const delay =
      Math.min(this.o.retryBaseMs * 2 ** (attempts - 1), this.o.retryMaxMs) * (0.8 + 0.4 * this.o.random());
    const nextAt = now + delay;
    const nowIso = new Date(now).toISOString();
    this.o.store.markFailed(
      rows.map((r) => r.id),
      words,
      nowIso,
      new Date(nextAt).toISOString(),
    );
    this.o.store.noteChannelResult(channel.id, nowIso, words);
    this.backoffUntil.set(channel.id, nextAt);
    result.failed += rows.length;
    this.o.onFailed?.(channel, words);
  }

  /** How long one send may take: the send deadline, or less when the round's own deadline is nearer. */
  private sendMs(deadline: number | undefined): number {
    return deadline
      ? Math.max(1_000, Math.min(this.o.sendTimeoutMs, deadline - Date.now()))
      : this.o.sendTimeoutMs;
  }
}
