import type { AccountBlockReason } from './failurePolicy.ts';
import type { SignalName } from '../signals/catalog.ts';

/** What the sync engine reports while it works; plain JSON, forwarded over the bridge as is. */
export type SyncEvent =
  /** Backfill or a full pass moves on: domains done/total, requests spent, estimated time left. */
  | {
      type: 'progress';
      accountId: number;
      phase: 'backfill' | 'pass';
      domainsDone: number;
      domainsTotal: number;
      requestsSpent: number;
      /** Estimated seconds left at the sync's share of the rate limit; null when unknown. */
      etaSeconds: number | null;
    }
  /** The mirror holds new data for a signal (re-query what shows it). */
  | { type: 'changed'; accountId: number; domainId: number | null; signal: SignalName }
  /** A fetch failed; the error is on the signal's sync state. */
  | {
      type: 'sync_error';
      accountId: number;
      domainId: number | null;
      signal: SignalName;
      code: string;
      message: string;
    }
  /** The account stopped syncing until the user acts. */
  | { type: 'account_paused'; accountId: number; reason: AccountBlockReason; message: string }
  /** The account is held by the rate limit until `until` (epoch ms). */
  | { type: 'rate_limited'; accountId: number; until: number };

/** Receives sync events; must not throw (errors are swallowed). */
export type SyncEventHandler = (event: SyncEvent) => void;
