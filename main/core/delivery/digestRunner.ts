import type { Channel } from '../mirror/deliveryTypes.ts';
import type { DigestSchedule } from '../mirror/digestStore.ts';
import type { Mirror } from '../mirror/types.ts';
import type { TickScheduler } from '../sync/scheduler.ts';
import { errorWords } from './deliveryError.ts';
import { digestContent, digestHtml, digestSubject, digestText } from './digest.ts';
import type { ChannelTransport } from './transport.ts';
import { latestSlot } from '../alerts/weeklySlot.ts';
import { withinDeadline } from './sendDeadline.ts';

const DAY_MS = 86_400_000;

/** What the digest runner needs; the clock and the ticks are passed in (tests: a fake clock, ticks by hand). */
export interface DigestRunnerOptions {
  mirror: Mirror;
  transportFor(channel: Channel): Promise<ChannelTransport>;
  now(): number;
  /** Calls the check (production: node-cron at the start of every minute). */
  scheduler: TickScheduler;
  /** First retry delay of a failed digest (default 5 min), doubled per attempt up to retryMaxMs (1 h). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Deadline of one send (default 60 s). */
  sendTimeoutMs?: number;
  onFailed?(channel: Channel, words: string): void;
  onSent?(channel: Channel): void;
}

/** The slot a schedule owes now (epoch ms), or null: the newest slot, when not delivered yet and not too new. */
export function owedSlot(s: DigestSchedule, now: number): number | null {
  const slot = latestSlot(s, now);
  if (slot <= Date.parse(s.since)) return null;
  // One digest a week: a schedule moved after this week's went out waits for next week's slot. (Slots of one
  // schedule are 7 days ± a DST hour apart; 6 days tells them from a moved schedule's.)
  if (s.lastSlot !== null && slot < Date.parse(s.lastSlot) + 6 * DAY_MS) return null;
  return slot;
}

/**
 * Mails each account's weekly digest at its slot (a weekday and time in the user's zone). Durable: the slot
 * delivered is recorded in the mirror once the SMTP server accepted the mail, so a restart never sends it
 * again, and a slot passed while the machine was off or the app closed is sent at the next start — once,
 * the newest slot only. A failed send is retried with backoff and shown as the schedule's last error.
 */
export class DigestRunner {
  private running: Promise<number> | null = null;
  private queued: Promise<number> | null = null;
  private handle: { stop(): Promise<void> } | null = null;

  constructor(private readonly o: DigestRunnerOptions) {}

  /** Checks now (a slot missed while off goes out) and then at every tick. */
  start(): void {
    if (this.handle) return;
    this.handle = this.o.scheduler.start(async () => {
      await this.check();
    });
    void this.check().catch(() => undefined);
  }

  async stop(): Promise<void> {
    await this.handle?.stop();
    this.handle = null;
    await this.queued?.catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  /**
   * Sends every digest owed now; resolves with how many went out. A call while a round runs gets one more
   * round after it (the clock may have reached a slot since that round looked), shared by every such call.
   */
  check(): Promise<number> {
    if (!this.running) {
      this.running = this.round().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => 0)
      .then(() => {
        this.queued = null;
        return this.check();
      });
    return this.queued;
  }

  private async round(): Promise<number> {
    let sent = 0;
    for (const schedule of this.o.mirror.digests.list()) {
      const now = this.o.now();
      const slot = owedSlot(schedule, now);
      if (slot === null) continue;
      if (schedule.nextAttemptAt !== null && Date.parse(schedule.nextAttemptAt) > now) continue;
      if (await this.send(schedule, slot)) sent++;
    }
    return sent;
  }

  private async send(schedule: DigestSchedule, slot: number): Promise<boolean> {
    const { mirror } = this.o;
    const channel = mirror.delivery.getChannel(schedule.channelId);
    const account = mirror.listAccounts().find((a) => a.id === schedule.accountId);
    if (!channel || !account) return false;
    const slotIso = new Date(slot).toISOString();
    const content = digestContent(mirror, account, slot);
    const mail = {
      // The same id on every attempt at this week's digest: a mail client sees a duplicate as one message.
      id: `digest-${account.id}-${slotIso.replace(/[^0-9TZ]/g, '')}`,
      subject: digestSubject(content, schedule.timeZone),
      text: digestText(content, schedule.timeZone),
      html: digestHtml(content, schedule.timeZone),
    };
    let transport: ChannelTransport | null = null;
    try {
      transport = await this.o.transportFor(channel);
      const mailer = transport;
      if (!mailer.sendMail) throw new Error(`“${channel.name}” is not an email channel`);
      await withinDeadline(this.o.sendTimeoutMs ?? 60_000, (signal) => mailer.sendMail!(mail, signal));
    } catch (error) {
      const words = `weekly digest: ${errorWords(error)}`;
      const now = this.o.now();
      const base = this.o.retryBaseMs ?? 5 * 60_000;
      const delay = Math.min(base * 2 ** schedule.attempts, this.o.retryMaxMs ?? 60 * 60_000);
      const at = new Date(now).toISOString();
      mirror.digests.markFailed(schedule.accountId, words, at, new Date(now + delay).toISOString());
      mirror.delivery.noteChannelResult(channel.id, at, words);
      this.o.onFailed?.(channel, words);
      return false;
    } finally {
      transport?.close?.();
    }
    const at = new Date(this.o.now()).toISOString();
    mirror.digests.markSent(schedule.accountId, slotIso, at);
    mirror.delivery.noteChannelResult(channel.id, at, null);
    this.o.onSent?.(channel);
    return true;
  }
}
