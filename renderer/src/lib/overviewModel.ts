import { dmarcState } from '../../../shared/bridge/overviewFilter.ts';
import type { OverviewHeadline, OverviewPageRow } from '../../../shared/bridge/overviewPage.ts';

/**
 * What the overview's table draws per row. The search, filters, order and headline figures are main's
 * (main/core/mirror/overviewPage.ts, over every domain); the lists and words they use are shared
 * (shared/bridge/overviewFilter.ts), without zod, so the first screen loads none.
 */
export {
  dmarcState,
  type DmarcState,
  type OverviewFilter,
  type SortKey,
} from '../../../shared/bridge/overviewFilter.ts';

/** The portfolio's headline figures. */
export type Headline = OverviewHeadline;

/** How many domains have each DMARC state. */
export type PolicyCounts = OverviewHeadline['byPolicy'];

/** A row with what its cells show worked out once. */
export interface OverviewItem {
  row: OverviewPageRow;
  key: string;
  dmarc: ReturnType<typeof dmarcState>;
}

export function toItem(row: OverviewPageRow): OverviewItem {
  return { row, key: `${row.accountId}:${row.domainId}`, dmarc: dmarcState(row.posture) };
}
