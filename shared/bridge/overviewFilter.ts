import { parseDmarcRecord } from '../email-auth/dmarcRecord.ts';
import type { PROTOCOLS } from '../email-auth/protocols.ts';
import { VERDICT_LEVELS, type VerdictLevel } from './statusLevels.ts';

/**
 * What the overview filters, sorts and counts by, without zod: main pages the overview with these
 * (main/core/mirror/overviewPage.ts) and the renderer's first screen draws with them, loading no schemas.
 * The schemas of the bridge method (./args.ts, ./results.ts) are built from these lists.
 */

/** A domain's DMARC state for the overview's icon, filter and sort. */
export const DMARC_STATES = ['reject', 'quarantine', 'none', 'missing', 'invalid', 'unknown'] as const;
export type DmarcState = (typeof DMARC_STATES)[number];

/** The overview's sortable columns. */
export const SORT_KEYS = ['fqdn', 'dmarc', 'score', 'protocols', 'result', 'alerts', 'age'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** The search, filters and order of the overview's table. */
export interface OverviewFilter {
  search: string;
  dmarc: DmarcState | 'enforced' | 'all';
  /** A protocol that must be failing, 'any' for "some protocol fails", or 'all'. */
  failing: (typeof PROTOCOLS)[number] | 'any' | 'all';
  alertsOnly: boolean;
  /** Only domains with this verdict, or 'all'. */
  verdict: VerdictLevel | 'all';
  showParked: boolean;
  sort: SortKey;
  descending: boolean;
}

export const DEFAULT_FILTER: OverviewFilter = {
  search: '',
  dmarc: 'all',
  failing: 'all',
  alertsOnly: false,
  verdict: 'all',
  showParked: false,
  sort: 'fqdn',
  descending: false,
};

/** The part of a domain's status the DMARC state reads (a DomainStatusView has it). */
interface DmarcEvidence {
  protocols: { dmarc: { finding: string | null; record: string | null } };
}

/**
 * The DMARC policy of the newest DMARC record the status holds (a scan's copy, or a DNS event's when newer),
 * with pct below 100 noted.
 */
export function dmarcState(posture: DmarcEvidence): {
  state: DmarcState;
  pct: number | null;
  record: string | null;
} {
  const dmarc = posture.protocols.dmarc;
  if (dmarc.finding === null) return { state: 'unknown', pct: null, record: null };
  const record = dmarc.finding === 'absent' ? null : dmarc.record;
  if (!record) return { state: 'missing', pct: null, record: null };
  const parsed = parseDmarcRecord(record);
  if (!parsed.ok || !parsed.value) return { state: 'invalid', pct: null, record };
  return { state: parsed.value.p, pct: parsed.value.pct ?? 100, record };
}

/** Where each DMARC state sorts (ascending: missing first, reject last). */
export const DMARC_RANK: Record<DmarcState, number> = {
  reject: 5,
  quarantine: 4,
  none: 3,
  invalid: 2,
  missing: 1,
  unknown: 0,
};

/** Where each verdict sorts (ascending: the worst first). */
export const verdictRank = (level: VerdictLevel): number => VERDICT_LEVELS.indexOf(level);
