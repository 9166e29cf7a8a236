import { parseDmarcRecord } from '../../../shared/email-auth/dmarcRecord.ts';
import type { DomainStatusView, OverviewRow } from '../../../shared/bridge/results.ts';
// The levels without the schemas: the first screen loads no zod (only main checks answers).
import { VERDICT_LEVELS, type VerdictLevel } from '../../../shared/bridge/statusLevels.ts';

/** A domain's DMARC state for the overview's icon and filter. */
export type DmarcState = 'reject' | 'quarantine' | 'none' | 'missing' | 'invalid' | 'unknown';

/**
 * The DMARC policy of the newest DMARC record the status holds (a scan's copy, or a DNS event's when newer),
 * with pct below 100 noted.
 */
export function dmarcState(posture: DomainStatusView): {
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

/** Parked domains (no mail by design) are hidden by default, as most dashboards do. */
export function isParked(row: OverviewRow): boolean {
  return row.status === 'parked' || /parked/i.test(row.group?.name ?? '');
}

export type SortKey = 'fqdn' | 'dmarc' | 'score' | 'protocols' | 'result' | 'alerts' | 'age';

export interface OverviewFilter {
  search: string;
  dmarc: DmarcState | 'enforced' | 'all';
  /** A protocol that must be failing, or 'any' for "some protocol fails". */
  failing: string | 'any' | 'all';
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

const DMARC_RANK: Record<DmarcState, number> = {
  reject: 5,
  quarantine: 4,
  none: 3,
  invalid: 2,
  missing: 1,
  unknown: 0,
};

/** A row with what the table shows precomputed once (1,000 rows are sorted and filtered on every keystroke). */
export interface OverviewItem {
  row: OverviewRow;
  key: string;
  dmarc: ReturnType<typeof dmarcState>;
  age: string | null;
  parked: boolean;
  search: string;
}

export function toItems(rows: readonly OverviewRow[]): OverviewItem[] {
  return rows.map((row) => ({
    row,
    key: `${row.accountId}:${row.domainId}`,
    dmarc: dmarcState(row.posture),
    age: row.dataAt,
    parked: isParked(row),
    search: `${row.fqdn} ${row.group?.name ?? ''} ${row.accountLabel}`.toLowerCase(),
  }));
}

// Required protocols passing weigh more than optional ones set up.
function protocolRank(p: DomainStatusView): number {
  return p.counts.requiredPassing * 10 + p.counts.optionalPassing;
}

/** The protocols failing in a domain's status (optional protocols not set up are not failing). */
export function failingProtocols(posture: DomainStatusView): string[] {
  return Object.values(posture.protocols)
    .filter((p) => p.state === 'failing')
    .map((p) => p.protocol);
}

function compare(a: OverviewItem, b: OverviewItem, key: SortKey): number {
  switch (key) {
    case 'fqdn':
      return a.row.fqdn.localeCompare(b.row.fqdn);
    case 'dmarc':
      return DMARC_RANK[a.dmarc.state] - DMARC_RANK[b.dmarc.state];
    case 'score':
      return (a.row.score?.score ?? -1) - (b.row.score?.score ?? -1);
    case 'protocols':
      return protocolRank(a.row.posture) - protocolRank(b.row.posture);
    case 'result':
      // Ascending puts the worst verdict first.
      return (
        VERDICT_LEVELS.indexOf(a.row.posture.verdict.level) -
        VERDICT_LEVELS.indexOf(b.row.posture.verdict.level)
      );
    case 'alerts':
      return a.row.openAlerts - b.row.openAlerts;
    case 'age':
      return (a.age ?? '').localeCompare(b.age ?? '');
  }
}

/** Filters and sorts the items; ties keep the domain name order. */
export function applyFilter(items: readonly OverviewItem[], f: OverviewFilter): OverviewItem[] {
  const needle = f.search.trim().toLowerCase();
  const out = items.filter((item) => {
    if (!f.showParked && item.parked) return false;
    if (needle && !item.search.includes(needle)) return false;
    if (f.alertsOnly && item.row.openAlerts === 0) return false;
    if (f.verdict !== 'all' && item.row.posture.verdict.level !== f.verdict) return false;
    if (f.dmarc === 'enforced' && item.dmarc.state !== 'reject' && item.dmarc.state !== 'quarantine')
      return false;
    if (f.dmarc !== 'all' && f.dmarc !== 'enforced' && item.dmarc.state !== f.dmarc) return false;
    if (f.failing !== 'all') {
      const failing = failingProtocols(item.row.posture);
      if (f.failing === 'any' ? failing.length === 0 : !failing.includes(f.failing)) return false;
    }
    return true;
  });
  const sign = f.descending ? -1 : 1;
  return out.sort((a, b) => sign * compare(a, b, f.sort) || a.row.fqdn.localeCompare(b.row.fqdn));
}

/** How many domains have each DMARC state. */
export type PolicyCounts = Record<DmarcState, number>;

/** The portfolio's headline figures (see headline). */
export type Headline = ReturnType<typeof headline>;

/**
 * Headline figures across the visible portfolio, from the statuses main derived: every domain has exactly
 * one verdict (the verdict counts add up to the domains shown); optional protocols not set up are counted
 * apart from failures.
 */
export function headline(items: readonly OverviewItem[]) {
  const byPolicy: PolicyCounts = {
    reject: 0,
    quarantine: 0,
    none: 0,
    invalid: 0,
    missing: 0,
    unknown: 0,
  };
  const byVerdict: Record<VerdictLevel, number> = { problem: 0, warning: 0, unknown: 0, good: 0 };
  let scoreSum = 0;
  let scored = 0;
  let alerts = 0;
  let failingAny = 0;
  let optionalNotSetUp = 0;
  for (const item of items) {
    byPolicy[item.dmarc.state]++;
    byVerdict[item.row.posture.verdict.level]++;
    if (item.row.score) {
      scoreSum += item.row.score.score;
      scored++;
    }
    alerts += item.row.openAlerts;
    const states = Object.values(item.row.posture.protocols);
    if (states.some((p) => p.state === 'failing')) failingAny++;
    if (states.some((p) => p.state === 'not_set_up')) optionalNotSetUp++;
  }
  return {
    total: items.length,
    byPolicy,
    byVerdict,
    averageScore: scored ? scoreSum / scored : null,
    alerts,
    failingAny,
    optionalNotSetUp,
  };
}
