import { z } from 'zod';
import { alertSchema, connectivitySchema, signalName } from './results.ts';

/**
 * Events main pushes to the renderer. Each is plain JSON, validated in main before it is sent.
 * - changed: the mirror holds new data (re-query what shows it);
 * - alert: an alert was just delivered as a notification (with the notification's words, from main);
 * - alert-summary: many waiting alerts were delivered as one notification (a long absence), its words from main;
 * - sync-progress: the sync moves on, fails on a signal, pauses or waits for the rate limit;
 * - connectivity: an account's service became reachable or unreachable;
 * - accounts: accounts were added, changed or removed;
 * - navigate: the shell asks the window to show a place (a notification or tray click).
 */
export const BRIDGE_EVENTS = {
  changed: z.object({
    accountId: z.number().nullable(),
    domainId: z.number().nullable(),
    what: z.union([signalName, z.enum(['alerts', 'settings', 'panel', 'dns_watch', 'live_checks'])]),
  }),
  alert: alertSchema.extend({ notification: z.object({ title: z.string(), body: z.string() }) }),
  'alert-summary': z.object({
    count: z.number(),
    critical: z.number(),
    since: z.string(),
    notification: z.object({ title: z.string(), body: z.string() }),
  }),
  'sync-progress': z.discriminatedUnion('type', [
    z.object({
      type: z.literal('progress'),
      accountId: z.number(),
      phase: z.enum(['backfill', 'pass']),
      domainsDone: z.number(),
      domainsTotal: z.number(),
      requestsSpent: z.number(),
      etaSeconds: z.number().nullable(),
    }),
    z.object({
      type: z.literal('sync_error'),
      accountId: z.number(),
      domainId: z.number().nullable(),
      signal: signalName,
      code: z.string(),
      message: z.string(),
    }),
    z.object({
      type: z.literal('account_paused'),
      accountId: z.number(),
      reason: z.string(),
      message: z.string(),
    }),
    z.object({ type: z.literal('rate_limited'), accountId: z.number(), until: z.number() }),
  ]),
  connectivity: connectivitySchema,
  accounts: z.object({}),
  navigate: z.object({
    route: z
      .string()
      .regex(/^#\/[A-Za-z0-9/_.?=&%-]*$/)
      .max(500),
  }),
} as const;

/** Name of a bridge event. */
export type BridgeEventName = keyof typeof BRIDGE_EVENTS;
/** The payload of event E. */
export type BridgeEventPayload<E extends BridgeEventName> = z.infer<(typeof BRIDGE_EVENTS)[E]>;
/** Every event as a tagged value (what main sends). */
export type BridgeEvent = {
  [E in BridgeEventName]: { event: E; payload: BridgeEventPayload<E> };
}[BridgeEventName];

/** Every event name. */
export const BRIDGE_EVENT_NAMES = Object.keys(BRIDGE_EVENTS) as BridgeEventName[];
