import { z } from 'zod';

const severity = z.enum(['critical', 'warning', 'info']);

/**
 * A delivery channel as the renderer sees it: its settings without any secret (whether one is kept is a
 * flag), and its state — last delivery, last error in words, deliveries queued.
 */
export const channelViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(['email', 'webhook', 'alertmanager']),
  /** Where it sends, in words, without secrets. */
  target: z.string(),
  minSeverity: severity,
  accountId: z.number().int().nullable(),
  holdCriticals: z.boolean(),
  queued: z.number().int(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** What the edit form starts from (secrets left out; `hasSecret` says one is kept). */
  form: z.object({
    smtp: z.string().optional(),
    from: z.string().optional(),
    to: z.array(z.string()).optional(),
    format: z.enum(['generic', 'slack', 'teams']).optional(),
    url: z.string().optional(),
    resendSeconds: z.number().int().optional(),
    hasSecret: z.boolean(),
  }),
});
export type ChannelView = z.infer<typeof channelViewSchema>;

const text = z.string().max(2_000);

/** A channel to add or edit; secret values are optional on edit (left out: the kept one stays). */
export const channelDraftSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('email'),
    name: z.string().min(1).max(60),
    minSeverity: severity.optional(),
    accountId: z.number().int().nullable().optional(),
    holdCriticals: z.boolean().optional(),
    smtp: text,
    from: text,
    to: z.array(text).min(1).max(50),
    password: text.optional(),
  }),
  z.object({
    kind: z.literal('webhook'),
    name: z.string().min(1).max(60),
    minSeverity: severity.optional(),
    accountId: z.number().int().nullable().optional(),
    holdCriticals: z.boolean().optional(),
    format: z.enum(['generic', 'slack', 'teams']).optional(),
    url: text.optional(),
    secret: text.optional(),
  }),
  z.object({
    kind: z.literal('alertmanager'),
    name: z.string().min(1).max(60),
    minSeverity: severity.optional(),
    accountId: z.number().int().nullable().optional(),
    holdCriticals: z.boolean().optional(),
    /** Left out on an edit: the kept URL stays (one with a token is never shown back). */
    url: text.optional(),
    resendSeconds: z.number().int().min(5).max(3600).optional(),
  }),
]);
/** A channel to add or edit, as the renderer's form sends it. */
export type ChannelDraftInput = z.infer<typeof channelDraftSchema>;

export const saveChannelArgs = z.object({ id: z.number().int().optional(), draft: channelDraftSchema });
export const channelRef = z.object({ id: z.number().int() });
/** Removing a channel: one that mails weekly digests is refused unless they are to stop with it. */
export const removeChannelArgs = channelRef.extend({ withDigests: z.boolean().optional() });
/** Whether the channel was there, and the accounts whose weekly digest stopped with it. */
export const removedChannelSchema = z.object({ removed: z.boolean(), digestsStopped: z.array(z.string()) });
export const channelTestSchema = z.object({ ok: z.boolean(), error: z.string().optional() });
export const savedChannelSchema = z.object({ channel: channelViewSchema, notices: z.array(z.string()) });

/** The desktop app's /metrics endpoint: off, or on at a port of 127.0.0.1. */
export const metricsSettingSchema = z.object({
  enabled: z.boolean(),
  port: z.number().int().min(1).max(65_535),
  /** Where it serves while enabled, or why it could not. */
  url: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
});
export const setMetricsArgs = metricsSettingSchema.pick({ enabled: true, port: true });
