import type { PanelData, PanelResult } from '../../../shared/bridge/panelData.ts';
import type { PanelName } from '../../../shared/bridge/panels.ts';
import { api } from './bridge.svelte.ts';
import { errorText } from './errorText.ts';
import { LatestRequest } from './latestRequest.ts';

/** Arguments of one read of the loader's panel (see shared/bridge/panels.ts). */
export interface PanelRequest {
  accountId: number;
  domainId?: number;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
}

/**
 * A panel fetched on open: first the mirror's kept copy (instant, works offline), then the service's
 * answer when the copy is missing or older than 15 minutes. `loading` is true only while nothing is shown
 * yet or a live read is under way; `result.error` says why a live read failed (the kept copy stays shown).
 */
export class PanelLoader<P extends PanelName> {
  result = $state.raw<PanelResult<P> | null>(null);
  loading = $state(false);
  failure = $state<string | null>(null);
  private readonly requests = new LatestRequest();

  /** The panel this loader reads; its data is typed from the operation's answer in openapi.yaml. */
  constructor(readonly panel: P) {}

  get data(): PanelData<P> | null {
    return this.result?.data ?? null;
  }

  /** The words to show when the live read failed or nothing was ever fetched. */
  get problem(): string | null {
    if (this.failure) return this.failure;
    const error = this.result?.error;
    if (!error) return null;
    const when = this.result?.fetchedAt ? 'showing the copy kept on this computer' : 'nothing kept yet';
    if (error.missingScope) return `The token lacks the ${error.missingScope} scope (${when}).`;
    if (error.code === 'network_error' || error.code === 'timeout')
      return `The service cannot be reached (${when}).`;
    if (error.status === 404) return 'The service has nothing for this panel (404).';
    return `${error.message} (${when}).`;
  }

  async load(request: PanelRequest, mode: 'auto' | 'refresh' = 'auto'): Promise<void> {
    const current = this.requests.begin();
    this.failure = null;
    try {
      const cached = await api.readPanel({ ...request, panel: this.panel, mode: 'cache' });
      if (!current()) return;
      if (cached.fetchedAt) this.result = cached;
      this.loading = true;
      const live = await api.readPanel({ ...request, panel: this.panel, mode });
      if (!current()) return;
      this.result = live;
    } catch (error) {
      if (current()) this.failure = errorText(error);
    } finally {
      if (current()) this.loading = false;
    }
  }
}
