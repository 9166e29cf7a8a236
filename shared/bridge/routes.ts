import { z } from 'zod';
import { silenceHoldSchema } from './acknowledgements.ts';
import { alertMatchersSchema } from './silences.ts';

const channelName = z.object({ id: z.number().int(), name: z.string() });

/** One route of the ordered routing table as the renderer and the command line show it. */
export const routeViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  matchers: alertMatchersSchema,
  /** The matchers in words ("group Regional, severity critical"). */
  matches: z.string(),
  /** The channels it sends to; the default route's "every other channel" lists those it reaches now. */
  channels: z.array(channelName),
  everyOtherChannel: z.boolean(),
  continue: z.boolean(),
  isDefault: z.boolean(),
  groupWaitSeconds: z.number().int().nullable(),
  silenceEvents: z.boolean(),
  repeatMinutes: z.number().int().nullable(),
  escalateAfterMinutes: z.number().int().nullable(),
  escalateTo: z.array(channelName),
});

const routeInput = z.object({
  /** A stored route's id: the same route, edited (what it escalated stays sent); none: a new route. */
  id: z.number().int().optional(),
  name: z.string().trim().min(1).max(100),
  matchers: alertMatchersSchema,
  /** null (default route only): every channel no other route names. */
  channelIds: z.array(z.number().int()).max(50).nullable(),
  continue: z.boolean(),
  isDefault: z.boolean(),
  /** Alertmanager's group_wait, 0 s to 1 hour; null: the sender's own gathering. */
  groupWaitSeconds: z.number().int().min(0).max(3_600).nullable().default(null),
  /** Channels told of an open alert hear alert.silenced / alert.unsilenced. */
  silenceEvents: z.boolean().default(false),
  /** Alertmanager's repeat_interval, 1 hour to 7 days. */
  repeatMinutes: z.number().int().min(60).max(10_080).nullable(),
  escalateAfterMinutes: z.number().int().min(1).max(1_440).nullable(),
  escalateTo: z.array(z.number().int()).max(50),
});

/** The whole table, in order: one default route, last. */
export const saveRoutesArgs = z.object({
  routes: z
    .array(routeInput)
    .min(1)
    .max(100)
    .refine((rs) => rs.filter((r) => r.isDefault).length === 1 && rs.at(-1)!.isDefault, {
      message: 'the table needs exactly one default route, last',
    }),
});

/** "Which route would this alert take?" */
export const routeTestArgs = z.object({ alertId: z.number().int() });

export const routeTestSchema = z.object({
  routes: z.array(z.object({ id: z.number().int(), name: z.string() })),
  channels: z.array(z.string()),
  /** A silence holding it now: it would go nowhere until the silence ends. */
  silencedBy: silenceHoldSchema.nullable(),
});

export type RouteView = z.infer<typeof routeViewSchema>;

/** A route as the table's input: what saveRoutes takes (channel ids, not names; the id keeps it the same route). */
export interface RouteInput {
  id?: number;
  name: string;
  matchers: RouteView['matchers'];
  channelIds: number[] | null;
  continue: boolean;
  isDefault: boolean;
  groupWaitSeconds: number | null;
  silenceEvents: boolean;
  repeatMinutes: number | null;
  escalateAfterMinutes: number | null;
  escalateTo: number[];
}

/** A listed route as input again, unchanged. */
export function inputOf(r: RouteView): RouteInput {
  return {
    id: r.id,
    name: r.name,
    matchers: r.matchers,
    channelIds: r.everyOtherChannel ? null : r.channels.map((c) => c.id),
    continue: r.continue,
    isDefault: r.isDefault,
    groupWaitSeconds: r.groupWaitSeconds,
    silenceEvents: r.silenceEvents,
    repeatMinutes: r.repeatMinutes,
    escalateAfterMinutes: r.escalateAfterMinutes,
    escalateTo: r.escalateTo.map((c) => c.id),
  };
}
