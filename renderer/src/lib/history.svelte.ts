import type { HistoryKind, HistoryRows } from '../../../shared/bridge/results.ts';
import { api } from './bridge.svelte.ts';
import type { DateWindow } from './dateWindow.ts';
import { LatestRequest } from './latestRequest.ts';

/** A domain's history series within the page's date window, read from the mirror (instant, offline too). */
export class HistoryLoader<K extends HistoryKind> {
  rows = $state.raw<HistoryRows[K][]>([]);
  loading = $state(true);
  private readonly requests = new LatestRequest();

  constructor(private readonly kind: K) {}

  async load(domain: { accountId: number; domainId: number }, window: DateWindow): Promise<void> {
    const current = this.requests.begin();
    this.loading = true;
    try {
      const rows = await api.history({
        kind: this.kind,
        accountId: domain.accountId,
        domainId: domain.domainId,
        since: `${window.start}T00:00:00Z`,
        until: `${window.end}T23:59:59Z`,
      });
      if (current()) this.rows = rows;
    } finally {
      if (current()) this.loading = false;
    }
  }
}
