import type { SenderSummary } from '../../../shared/bridge/senders.ts';
import { api } from './bridge.svelte.ts';
import { errorText } from './errorText.ts';
import { LatestRequest } from './latestRequest.ts';

/** A domain's senders with their trends, read from the mirror (works offline); the latest read wins. */
export class SendersLoader {
  rows = $state.raw<SenderSummary[]>([]);
  loading = $state(false);
  problem = $state<string | null>(null);
  private readonly requests = new LatestRequest();

  async load(accountId: number, domainId: number): Promise<void> {
    const current = this.requests.begin();
    this.loading = this.rows.length === 0;
    try {
      const rows = await api.domainSenders({ accountId, domainId });
      if (!current()) return;
      this.rows = rows;
      this.problem = null;
    } catch (error) {
      if (current()) this.problem = errorText(error);
    } finally {
      if (current()) this.loading = false;
    }
  }
}
