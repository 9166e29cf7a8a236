import { z } from 'zod';
import { checkRequestBody, requestBodyOf } from '../api/requestBodies.ts';
import { EDIT_OPERATION_NAMES, type EditOperationName } from './editOperationNames.ts';
import type { EditBody } from './editTypes.ts';
import { PANEL_NAMES } from './panels.ts';

/**
 * Arguments of every bridge method. Shells send plain JSON; the facade validates it here before touching the
 * mirror, the keychain or the network, and the renderer may validate with the same schemas before sending.
 */
const id = z.number().int().positive();
/** An instant: ISO 8601 string with zone, or epoch milliseconds. */
const instant = z.union([z.iso.datetime({ offset: true }), z.number().int().nonnegative()]);
const label = z.string().trim().min(1, 'the label must not be empty').max(100);
const baseUrl = z.string().trim().min(1, 'the base URL must not be empty').max(2048);
// Tokens are opaque; bounds only stop absurd pastes. Messages never echo the value.
const token = z.string().trim().min(8, 'the token looks too short').max(4096);
/**
 * An alert's rule name. The names are the rule files' own (main/core/alerts/rules), served with their words by
 * the `alertRules` method, so a new rule needs no line here; main refuses a name no rule raises.
 */
export const alertRule = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'an alert rule name is lower_snake_case')
  .max(64);
const hour = z.number().int().min(0).max(23);

export const accountScope = z.strictObject({ accountId: id.optional() }).optional();
export const domainRef = z.strictObject({ accountId: id, domainId: id });

export const historyArgs = z.strictObject({
  kind: z.enum(['health', 'score', 'mail_volume', 'dns_events']),
  accountId: id,
  domainId: id,
  since: instant.optional(),
  until: instant.optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
});

export const listAlertsArgs = z
  .strictObject({
    accountId: id.optional(),
    domainId: id.optional(),
    open: z.boolean().optional(),
    rule: alertRule.optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .refine((a) => a.domainId === undefined || a.accountId !== undefined, {
    message: 'domainId needs accountId (domain ids are per account)',
  })
  .optional();

export const acknowledgeArgs = z.strictObject({ ids: z.array(id).min(1).max(10_000) });
export const snoozeArgs = z.strictObject({ id, until: instant });
export const muteArgs = z.strictObject({ accountId: id, domainId: id, until: instant.nullable() });

/** The longest silence an edit in the app opens by itself (a day: longer is a planned change, said so). */
export const MAX_EDIT_SILENCE_MINUTES = 1_440;

export const syncSettingsSchema = z.strictObject({
  /** The token's limit (60/minute unless support raised it). */
  ratePerMinute: z.number().int().min(1).max(100_000),
  /** Requests per minute the sync leaves for the user's own edits. */
  headroom: z.number().int().min(0).max(1000),
});

export const updateSettingsArgs = z
  .strictObject({
    alerts: z
      .strictObject({
        scoreStep: z.number().positive().max(10).optional(),
        scoreFloor: z.number().min(0).max(10).nullable().optional(),
        quietHours: z.strictObject({ startHour: hour, endHour: hour }).nullable().optional(),
        timeZone: z.string().min(1).max(100).nullable().optional(),
        quietHoldsCriticals: z.boolean().optional(),
        editSilenceMinutes: z.number().int().min(0).max(MAX_EDIT_SILENCE_MINUTES).optional(),
      })
      .optional(),
    sync: syncSettingsSchema
      .partial()
      .optional()
      .refine(
        (s) =>
          !s || s.headroom === undefined || s.ratePerMinute === undefined || s.headroom < s.ratePerMinute,
        {
          message: 'headroom must be smaller than the rate limit',
        },
      ),
  })
  .refine((a) => a.alerts !== undefined || a.sync !== undefined, { message: 'nothing to change' });

export const addAccountArgs = z.strictObject({ label, baseUrl, token });
export const accountRef = z.strictObject({ accountId: id });
export const updateAccountArgs = z
  .strictObject({
    accountId: id,
    label: label.optional(),
    baseUrl: baseUrl.optional(),
    token: token.optional(),
  })
  .refine((a) => a.label !== undefined || a.baseUrl !== undefined || a.token !== undefined, {
    message: 'nothing to change',
  });

/**
 * An edit's JSON body, typed per operation by the contract's `edit` (shared/bridge/editTypes.ts); its value is
 * checked with the operation in `editArgs` below.
 */
const editBody = z.custom<EditBody<EditOperationName>>(() => true);

export const editArgs = z
  .strictObject({
    operation: z.enum(EDIT_OPERATION_NAMES),
    accountId: id,
    /** Remote id of the domain the operation acts on (fills {domain_id}). */
    domainId: id.optional(),
    /** Other path ids: group_id, user_id, include_id, ip_action_id, token_id. */
    params: z.record(z.string().regex(/^[a-z_]+_id$/), id).optional(),
    body: editBody.optional(),
  })
  .superRefine((a, ctx) => {
    // An unknown operation was refused above, with nothing to check the body against.
    if (!(EDIT_OPERATION_NAMES as readonly string[]).includes(a.operation)) return;
    // The operation's request schema of openapi.yaml, through its generated validator (and record syntax
    // through shared/email-auth): a bad body is refused naming its field, as the service would (`body.mode`).
    if (a.body !== undefined && !requestBodyOf(a.operation)) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: `${a.operation} takes no body` });
      return;
    }
    for (const problem of checkRequestBody(a.operation, a.body).problems) {
      ctx.addIssue({ code: 'custom', path: problem.field.split('.'), message: problem.message });
    }
  });

/** A panel read: a GET the mirror does not poll, fetched live when asked and kept for offline review. */
export const readPanelArgs = z.strictObject({
  panel: z.enum(PANEL_NAMES),
  accountId: id,
  /** Remote domain id, for per-domain panels. */
  domainId: id.optional(),
  /** Other path ids: user_id, group_id (integers), job_id (a bulk job's id). */
  params: z
    .record(z.string().regex(/^[a-z_]+_id$/), z.union([id, z.string().regex(/^[A-Za-z0-9_-]{1,100}$/)]))
    .optional(),
  /** Query parameters the panel allows (see PANELS); anything else is refused. */
  query: z
    .record(z.string().regex(/^[a-z_]{1,40}$/), z.union([z.string().max(200), z.number(), z.boolean()]))
    .optional(),
  /** 'cache' answers from the mirror only; 'refresh' always asks the service; default: refresh when older than 15 min. */
  mode: z.enum(['auto', 'cache', 'refresh']).optional(),
});

/** Export of the overview or the alerts. */
export const exportArgs = z.strictObject({
  what: z.enum(['overview', 'alerts']),
  format: z.enum(['csv', 'json']),
  accountId: id.optional(),
});

/** Notification pause (tray: "Pause notifications for 1 hour"). */
export const pauseNotificationsArgs = z.strictObject({ until: instant.nullable() });

/** App-level preferences a shell applies (start at login, notifications on or off). */
export const appPreferencesSchema = z.strictObject({
  startAtLogin: z.boolean(),
  notifications: z.boolean(),
});
export const updateAppPreferencesArgs = appPreferencesSchema.partial();

/** A link to open in the user's browser: https only. */
export const openExternalArgs = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine((u) => {
      try {
        return new URL(u).protocol === 'https:';
      } catch {
        return false;
      }
    }, 'only https links open outside the app'),
});
