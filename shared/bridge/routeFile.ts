import { z } from 'zod';
import { alertMatchersSchema } from './silences.ts';

const channelNames = z.array(z.string().trim().min(1).max(100)).max(50);

/**
 * One route in the routing table's file (`authwatch routes export`, Settings → "Export table…"): channels
 * and the account by name, since ids differ from one mirror to another.
 */
const fileRoute = z
  .object({
    name: z.string().trim().min(1).max(100),
    /** The default route: last, exactly one; it matches everything. */
    default: z.boolean().default(false),
    matchers: alertMatchersSchema.omit({ accountId: true }).default({}),
    /** The account's label, when the route is for one account. */
    account: z.string().trim().min(1).max(100).optional(),
    /** Channel names; null (the default route only): every channel no other route names. */
    channels: channelNames.nullable(),
    continue: z.boolean().default(false),
    groupWaitSeconds: z.number().int().min(0).max(3_600).nullable().default(null),
    silenceEvents: z.boolean().default(false),
    repeatMinutes: z.number().int().min(60).max(10_080).nullable().default(null),
    escalateAfterMinutes: z.number().int().min(1).max(1_440).nullable().default(null),
    escalateTo: channelNames.default([]),
  })
  .strict();

/** The routing table as a file: `{"authwatch": "routes", "version": 1, "routes": [...]}`. */
export const routeFileSchema = z
  .object({
    authwatch: z.literal('routes'),
    version: z.literal(1),
    routes: z
      .array(fileRoute)
      .min(1)
      .max(100)
      .refine((rs) => rs.filter((r) => r.default).length === 1 && rs.at(-1)!.default, {
        message: 'the table needs exactly one default route, last',
      }),
  })
  .strict();
export type RouteFile = z.infer<typeof routeFileSchema>;

/** The table as a file to save: its name and its text. */
export const routeFileResultSchema = z.object({
  filename: z.string(),
  mimeType: z.string(),
  content: z.string(),
});

/** A file's text to replace the table with (1 MiB at most). */
export const importRoutesArgs = z.object({ text: z.string().max(1_048_576) });
