import { z } from 'zod';
import { durationWords } from '../../../../shared/time/timeWords.ts';
import type { AlertEvent, RuleContext } from '../../alerts/types.ts';
import { conditionEvents, type Condition } from '../conditionAlert.ts';
import { liveCheck, type LiveReading } from '../definition.ts';
import { routeAlert } from '../../mirror/routing.ts';

const channelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  failingSince: z.string(),
  lastError: z.string(),
  lastErrorAt: z.string(),
  /** Deliveries tried and still waiting. */
  waiting: z.number().int(),
  /** Failing for longer than the limit at the check's time. */
  overLimit: z.boolean(),
  /** How long it has been failing, in words, at the check's time ("2 hours"). */
  forWords: z.string(),
  /** Whether the user's routes send this alert to another channel (false: only the app's notification and tray). */
  othersTold: z.boolean().default(true),
});

const resultSchema = z.object({
  limitMinutes: z.number().int(),
  /** The channels failing now (every one, over the limit or not yet). */
  failing: z.array(channelSchema),
});
type ChannelFailing = z.infer<typeof resultSchema>;
type Failing = z.infer<typeof channelSchema>;

const settingsSchema = z.object({
  /** Minutes a channel may fail before it is an alert (Settings → Live checks; default one hour). */
  limitMinutes: z.number().int().min(5).max(10_080),
});

const limitWords = (minutes: number) => durationWords(minutes * 60_000);

function condition(c: Failing, limitMinutes: number): Condition {
  return {
    key: `channel:${c.id}`,
    severity: 'warning',
    title: `Delivery channel “${c.name}” is failing: ${c.lastError}`,
    body:
      `Alerts have not reached “${c.name}” for ${c.forWords} (since ${c.failingSince}), longer than the ` +
      `${limitWords(limitMinutes)} allowed in Settings → Live checks. Its last error: ${c.lastError}. ` +
      `${c.waiting} ${c.waiting === 1 ? 'delivery waits' : 'deliveries wait'} and ${c.waiting === 1 ? 'is' : 'are'} retried; ` +
      (c.othersTold
        ? 'the app’s notifications and the other channels still carry alerts. '
        : `your routes send warnings only to “${c.name}”, so until it is mended only the app’s notifications and tray carry them. `) +
      'This ends when the channel delivers again.',
    details: { channelId: c.id, channel: c.name, lastError: c.lastError },
  };
}

function failingEvents(
  _before: LiveReading<ChannelFailing> | null,
  after: LiveReading<ChannelFailing> | null,
  ctx: RuleContext,
): AlertEvent[] {
  const r = after?.result;
  const found = (r?.failing ?? []).filter((c) => c.overLimit).map((c) => condition(c, r!.limitMinutes));
  return conditionEvents('channel_failing', 'channel:', found, ctx);
}

/**
 * A delivery channel (email, webhook, Alertmanager) that has failed for longer than the limit the user sets,
 * read from the outbox the sender keeps (the channel's last error, and the deliveries it tried and still
 * owes): one alert per channel, in the words of its last error, ended by the channel's next delivery. The
 * alert goes wherever alerts go — the app's notification and tray, and every other channel the routes name —
 * but never to the failing channel itself (routing leaves out the channel an alert is about), and it says so
 * when the routes leave no other channel. No network: it reads the mirror every minute.
 */
export default liveCheck('channel_failing', {
  words: 'A channel that has failed for longer than the limit below',
  per: 'global',
  cadence: { periodSeconds: 60, retrySeconds: 60 },
  caps: { concurrency: 1, perTick: 1 },
  settingsKey: 'channelFailing',
  settings: { schema: settingsSchema, defaults: { limitMinutes: 60 } },
  uses: [],
  result: resultSchema,
  async probe(ctx) {
    const now = ctx.now();
    const limitMs = ctx.settings.limitMinutes * 60_000;
    const channels = ctx.mirror.delivery.listChannels();
    const routes = ctx.mirror.routes.list();
    const failing = ctx.mirror.delivery.failingChannels().map((c) => {
      const ms = now - Date.parse(c.failingSince);
      // Where this alert itself will go (never to the channel it is about): any other channel at all?
      const facts = {
        accountId: ctx.target.accountId,
        group: null,
        domain: null,
        protocol: null,
        rule: 'channel_failing',
        severity: 'warning' as const,
        aboutChannelId: c.id,
      };
      return {
        othersTold: routeAlert(routes, facts, channels).channels.length > 0,
        id: c.id,
        name: c.name,
        failingSince: c.failingSince,
        lastError: c.lastError,
        lastErrorAt: c.lastErrorAt,
        waiting: c.waiting,
        overLimit: ms >= limitMs,
        forWords: durationWords(ms),
      };
    });
    return { status: 'checked', result: { limitMinutes: ctx.settings.limitMinutes, failing } };
  },
  rules: {
    channelFailing: {
      alerts: {
        channel_failing: {
          label: 'Delivery channel failing',
          description:
            'A delivery channel has failed for longer than the limit in Settings → Live checks (one hour unless changed); ends when it delivers again.',
          severity: 'warning',
          details: z.strictObject({ channelId: z.number(), channel: z.string(), lastError: z.string() }),
          words: (d) => `Delivery channel “${String(d.channel)}” failing`,
        },
      },
      run: failingEvents,
    },
  },
  shown: {
    label: 'Delivery channels',
    text: (r) =>
      r.failing.length === 0
        ? 'every channel delivers'
        : r.failing.map((c) => `“${c.name}” failing for ${c.forWords}: ${c.lastError}`).join('; '),
    problems: (r) =>
      r.failing
        .filter((c) => c.overLimit)
        .map(
          (c) =>
            `“${c.name}” has failed for ${c.forWords}, over the ${limitWords(r.limitMinutes)} allowed: ${c.lastError}`,
        ),
  },
});
