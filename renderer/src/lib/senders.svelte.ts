import type { SenderSummary } from '../../../shared/bridge/senders.ts';
import { api } from './bridge.svelte.ts';
import { errorText } from './errorText.ts';

/** A domain's senders with their trends, read from the mirror (works offline); the latest read wins. */
export class SendersLoader {
  rows = $state.raw<SenderSummary[]>([]);
  loading = $state(false);
  problem = $state<string | null>(null);
  private generation = 0;

  async load(accountId: number, domainId: number): Promise<void> {
    const mine = ++this.generation;
    this.loading = this.rows.length === 0;
    try {
      const rows = await api.domainSenders({ accountId, domainId });
      if (mine !== this.generation) return;
      this.rows = rows;
      this.problem = null;
    } catch (error) {
      if (mine === this.generation) this.problem = errorText(error);
    } finally {
      if (mine === this.generation) this.loading = false;
    }
  }
}
