import { PROTOCOLS } from '../../../../shared/email-auth/protocols.ts';
import {
  DEFAULT_FILTER,
  DMARC_STATES,
  SORT_KEYS,
  type OverviewFilter,
} from '../../../../shared/bridge/overviewFilter.ts';
import { VERDICT_LEVELS } from '../../../../shared/bridge/statusLevels.ts';
import type {
  OverviewPage,
  OverviewPageArgs,
  OverviewPageRow,
} from '../../../../shared/bridge/overviewPage.ts';
import { api } from '../bridge.svelte.ts';
import { LatestRequest } from '../latestRequest.ts';

/** Rows asked for as the user scrolls: a few screens of the table at a time. */
const PAGE = 60;
/** The table's row height (DomainTable) and the rows it keeps beyond the view. */
const ROW_PX = 44;
const OVERSCAN = 8;

/**
 * Rows asked for with a new order or filter: as many as the window can show (the table is shorter than the
 * window) and the few kept beyond it — what the screen shows, not a page more.
 */
const firstScreen = () =>
  Math.min(PAGE, Math.ceil((typeof window === 'undefined' ? 800 : window.innerHeight) / ROW_PX) + OVERSCAN);

/**
 * The overview's table as main pages it: the search, filters and order (remembered between runs), the
 * headline and counts of the newest answer, and the rows fetched so far by their position in the table.
 * Main searches, filters and sorts every domain (main/core/mirror/overviewPage.ts); the window asks for the
 * rows it shows, and more as the user scrolls.
 */
class OverviewView {
  filter = $state<OverviewFilter>({ ...savedFilter(), search: '' });
  groupByGroup = $state(localStorage.getItem('authwatch.groupBy') === 'group');
  /** The newest answer: headline, counts and groups (its rows are in `rows`). */
  page = $state.raw<OverviewPage | null>(null);
  /** The rows fetched so far, by position in the table's order (holes: not fetched yet). */
  rows = $state.raw<(OverviewPageRow | undefined)[]>([]);
  /**
   * The order the rows shown are in: the headers say this one, not the order just asked for, so a header
   * never reads "ascending" above rows still in the last order while main's answer is on its way.
   */
  shownOrder = $state.raw<Pick<OverviewFilter, 'sort' | 'descending'>>({
    sort: this.filter.sort,
    descending: this.filter.descending,
  });
  /** The first row in view: a reload keeps the view where it is. */
  topRow = 0;

  private readonly requests = new LatestRequest();
  private loadedKey: string | null = null;
  private accountId: number | undefined = undefined;
  /** Where the pages being fetched start (each covers PAGE rows). */
  private fetching = new Set<number>();

  /** The query for the account in view (undefined: every account). */
  private args(accountId: number | undefined, offset: number, limit = PAGE): OverviewPageArgs {
    return {
      ...(accountId !== undefined ? { accountId } : {}),
      ...this.filter,
      groupByGroup: this.groupByGroup,
      offset,
      limit,
    };
  }

  /** True when the rows shown were asked for with this account scope, filter and order. */
  isCurrent(accountId: number | undefined): boolean {
    return this.loadedKey === this.keyOf(accountId);
  }

  private keyOf(accountId: number | undefined): string {
    const { offset: _o, limit: _l, ...query } = this.args(accountId, 0);
    return JSON.stringify(query);
  }

  /**
   * Asks for the rows from the one in view (the top after a change of filter or order: `fromTop`) and
   * replaces what is shown when the answer comes, unless a newer load started meanwhile.
   */
  async load(accountId: number | undefined, fromTop = false): Promise<void> {
    if (fromTop) this.topRow = 0;
    const current = this.requests.begin();
    const key = this.keyOf(accountId);
    this.fetching.clear();
    const asked = this.args(accountId, this.topRow, firstScreen());
    const answer = await api.overviewPage(asked);
    if (!current()) return;
    this.loadedKey = key;
    this.accountId = accountId;
    this.shownOrder = { sort: asked.sort, descending: asked.descending };
    this.show(answer, []);
  }

  /** Fetches the rows of [first, last) not fetched yet (the table calls it as it scrolls). */
  ensure(first: number, last: number): void {
    this.topRow = first;
    const from = this.firstHole(first, last);
    if (from === null || [...this.fetching].some((f) => from >= f && from < f + PAGE)) return;
    this.fetching.add(from);
    const current = this.requests.current();
    void api.overviewPage(this.args(this.accountId, from)).then((answer) => {
      this.fetching.delete(from);
      if (!current()) return;
      // The portfolio changed between the pages: start again from here rather than mix two orders.
      if (answer.shown !== this.page?.shown) return void this.load(this.accountId);
      this.show(answer, this.rows);
    });
  }

  private firstHole(first: number, last: number): number | null {
    for (let i = first; i < Math.min(last, this.rows.length); i++) if (this.rows[i] === undefined) return i;
    return null;
  }

  private show(answer: OverviewPage, kept: readonly (OverviewPageRow | undefined)[]): void {
    const rows: (OverviewPageRow | undefined)[] = Array.from({ length: answer.shown }, (_, i) => kept[i]);
    answer.rows.forEach((row, i) => (rows[answer.offset + i] = row));
    this.page = answer;
    this.rows = rows;
  }

  /** Remembers the filter (not the search) and the grouping for the next run. */
  save(): void {
    const { search: _search, ...rest } = this.filter;
    localStorage.setItem('authwatch.overview', JSON.stringify(rest));
    localStorage.setItem('authwatch.groupBy', this.groupByGroup ? 'group' : '');
  }
}

const CHOICES: { [K in keyof OverviewFilter]?: readonly unknown[] } = {
  dmarc: [...DMARC_STATES, 'enforced', 'all'],
  failing: [...PROTOCOLS, 'any', 'all'],
  verdict: [...VERDICT_LEVELS, 'all'],
  sort: SORT_KEYS,
};

/**
 * What an earlier run stored (JSON has no types, and an older app may have stored other choices): each
 * field kept when main would accept it, the default otherwise.
 */
function savedFilter(): OverviewFilter {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem('authwatch.overview') ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) stored = parsed as Record<string, unknown>;
  } catch {
    // A damaged entry: the defaults.
  }
  const out: Record<string, unknown> = { ...DEFAULT_FILTER };
  for (const [key, fallback] of Object.entries(DEFAULT_FILTER)) {
    const value = stored[key];
    const choices = CHOICES[key as keyof OverviewFilter];
    if (choices ? choices.includes(value) : typeof value === typeof fallback) out[key] = value;
  }
  return out as unknown as OverviewFilter;
}

export const overviewView = new OverviewView();
