import { z } from 'zod';
import { calendarDate, integer, timestamp } from './primitives.ts';

/** The `dashboard_cache` signal: GET /domains/{domain_id}/dashboard-cache (data is null when not cached). */
export const dashboardCacheSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  cached: z.boolean(),
  cached_at: timestamp.nullish(),
  start_date: calendarDate.nullish(),
  end_date: calendarDate.nullish(),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
});
