import { z } from 'zod';
import { PROTOCOLS } from '../email-auth/protocols.ts';
import { DMARC_STATES, SORT_KEYS } from './overviewFilter.ts';
import { domainStatusSchema, signalName, syncErrorSchema } from './results.ts';
import { VERDICT_LEVELS } from './statusLevels.ts';

/**
 * The window's overview, a screen at a time: the headline over every listed domain of the scope and the
 * rows from `offset` in the table's order, searched, filtered and sorted in main over all of them. The
 * first screen costs what it shows — its rows, not every domain's (main/core/mirror/overviewPage.ts).
 */

/** Most rows one call answers. */
export const OVERVIEW_PAGE_MAX = 200;

export const overviewPageArgs = z.strictObject({
  accountId: z.number().int().positive().optional(),
  search: z.string().max(200),
  dmarc: z.enum([...DMARC_STATES, 'enforced', 'all']),
  failing: z.enum([...PROTOCOLS, 'any', 'all']),
  alertsOnly: z.boolean(),
  verdict: z.enum([...VERDICT_LEVELS, 'all']),
  showParked: z.boolean(),
  sort: z.enum(SORT_KEYS),
  descending: z.boolean(),
  /** Rows ordered by domain group first (the table's group headers), then by `sort`. */
  groupByGroup: z.boolean(),
  /** The first row wanted, in the filtered and sorted order (0: the top). */
  offset: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative().max(OVERVIEW_PAGE_MAX),
});
export type OverviewPageArgs = z.infer<typeof overviewPageArgs>;

const count = z.number().int().nonnegative();

/** One row of the table: what its cells and their hover texts show. */
export const overviewPageRowSchema = z.object({
  accountId: z.number(),
  accountLabel: z.string(),
  domainId: z.number(),
  fqdn: z.string(),
  group: z.object({ id: z.number(), name: z.string() }).nullable(),
  score: z.number().nullable(),
  openAlerts: count,
  /** The domain's one status: the chips, the verdict and their hover texts. */
  posture: domainStatusSchema,
  /** The newest success among the domain's signals (null: nothing fetched yet). */
  dataAt: z.string().nullable(),
  lastError: syncErrorSchema.extend({ signal: signalName }).nullable(),
});
export type OverviewPageRow = z.infer<typeof overviewPageRowSchema>;

/**
 * Headline figures across the listed domains (parked ones only when shown): every domain has exactly one
 * verdict (the verdict counts add up to `total`); optional protocols not set up are counted apart from
 * failures.
 */
export const overviewHeadlineSchema = z.object({
  total: count,
  byPolicy: z.record(z.enum(DMARC_STATES), count),
  byVerdict: z.record(z.enum(VERDICT_LEVELS), count),
  averageScore: z.number().nullable(),
  alerts: count,
  failingAny: count,
  optionalNotSetUp: count,
});
export type OverviewHeadline = z.infer<typeof overviewHeadlineSchema>;

export const overviewPageSchema = z.object({
  /** Every listed domain of the scope, parked ones included, and their open alerts. */
  scope: z.object({ domains: count, parked: count, openAlerts: count }),
  headline: overviewHeadlineSchema,
  /** How many rows match the search and filters. */
  shown: count,
  /** With groupByGroup: the groups in the table's order and how many matching rows each holds. */
  groups: z.array(z.object({ name: z.string(), count })).nullable(),
  offset: count,
  rows: z.array(overviewPageRowSchema),
});
export type OverviewPage = z.infer<typeof overviewPageSchema>;
