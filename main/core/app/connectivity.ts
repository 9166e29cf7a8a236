import type { Connectivity } from '../../../shared/bridge/results.ts';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { networkSentence } from '../../../shared/bridge/network.ts';

/** Error codes that mean "the service could not be reached", as opposed to an answer we did not like. */
const UNREACHABLE = new Set(['network_error', 'timeout']);

/**
 * Whether each account's service answers, from the API client's own events: any HTTP answer means online,
 * a network error or timeout means offline. Emits only on a change, so the renderer's banner does not flicker.
 */
export class ConnectivityTracker {
  private readonly states = new Map<number, Connectivity>();

  constructor(
    private readonly now: () => number,
    private readonly onChange: (state: Connectivity) => void,
    private readonly lastKnownSuccess: (accountId: number) => string | null,
  ) {}

  /** Feeds one client event of an account. */
  observe(accountId: number, event: ApiEvent): void {
    if (event.type === 'response') this.set(accountId, true, null);
    else if (event.type === 'error' && UNREACHABLE.has(event.code)) {
      // A proxy or certificate that stopped the request is said as the network layer words it.
      const sentence = event.message ? networkSentence(event.message) : null;
      this.set(accountId, false, sentence ?? `The service did not answer (${event.code.replace('_', ' ')}).`);
    }
  }

  /** The account's state; unknown accounts count as online since their last mirrored success. */
  get(accountId: number): Connectivity {
    return (
      this.states.get(accountId) ?? {
        accountId,
        online: true,
        lastSuccessAt: this.lastKnownSuccess(accountId),
        message: null,
      }
    );
  }

  /** Forget an account (removed or re-pointed). */
  forget(accountId: number): void {
    this.states.delete(accountId);
  }

  private set(accountId: number, online: boolean, message: string | null): void {
    const before = this.get(accountId);
    const next: Connectivity = {
      accountId,
      online,
      lastSuccessAt: online ? new Date(this.now()).toISOString() : before.lastSuccessAt,
      message,
    };
    this.states.set(accountId, next);
    if (before.online !== online) this.onChange(next);
  }
}
