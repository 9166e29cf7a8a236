import { z } from 'zod';

// The five protocols, defined once in shared/email-auth (other record types are kept but not alerted on).
export { isProtocol, PROTOCOLS, type Protocol } from '../../../shared/email-auth/protocols.ts';

/** An ISO 8601 timestamp: a string that Date.parse understands (the interface promises UTC ISO strings). */
export const timestamp = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 timestamp');

/** A calendar date, YYYY-MM-DD. */
export const calendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD date');

/** A count or an integer identifier. */
export const integer = z.number().int();

/**
 * Connection status words (current_status, status_before, status_after, action): a string here; the
 * document's enum (connected, disconnected) is checked with its other bounds (documentCheck.ts).
 */
export const connectionWord = z.string();
