import { z } from 'zod';
import { alertMatchersSchema } from './silences.ts';

/** A recurring maintenance window as every surface shows it. */
export const maintenanceViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  matchers: alertMatchersSchema,
  matches: z.string(),
  weekdays: z.array(z.number().int().min(0).max(6)),
  hour: z.number().int(),
  minute: z.number().int(),
  durationMinutes: z.number().int(),
  timeZone: z.string(),
  /** "Sun 02:00 for 120 min (Europe/Berlin)". */
  when: z.string(),
  author: z.string(),
  /** When the current opening ends, or null while closed. */
  openUntil: z.string().nullable(),
  /** Open alerts it holds now (0 while closed). */
  holding: z.number().int().nonnegative(),
});

export const saveMaintenanceArgs = z.object({
  name: z.string().trim().min(1).max(100),
  matchers: alertMatchersSchema,
  weekdays: z.array(z.number().int().min(0).max(6)).min(1).max(7),
  hour: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59),
  durationMinutes: z.number().int().min(1).max(1_440),
  timeZone: z.string().min(1).max(100),
});

export const maintenanceRef = z.object({ id: z.number().int() });
