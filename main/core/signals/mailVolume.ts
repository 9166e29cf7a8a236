import { z } from 'zod';
import { calendarDate, integer } from './primitives.ts';

/** The counters of mail volume totals and of each timeline entry. */
export const volumeCountsShape = {
  total: integer.optional(),
  delivered: integer.optional(),
  quarantined: integer.optional(),
  rejected: integer.optional(),
  dmarc_pass: integer.optional(),
  dmarc_fail: integer.optional(),
};

/** One day of the mail volume timeline. */
export const mailVolumeDaySchema = z.looseObject({ date: calendarDate, ...volumeCountsShape });

/** The `mail_volume` signal: GET /domains/{domain_id}/mail-volume. */
export const mailVolumeSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  start_date: calendarDate.optional(),
  end_date: calendarDate.optional(),
  totals: z.looseObject(volumeCountsShape).optional(),
  timeline: z.array(mailVolumeDaySchema),
});
