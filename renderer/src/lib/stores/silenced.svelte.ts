import { api } from '../bridge.svelte.ts';
import { session } from './session.svelte.ts';

/**
 * The open alerts silenced now, for the header (the sidebar's "3 silenced"): main's one count, the same the
 * tray's tooltip shows, for the account in view; re-read whenever the mirror or the account in view changes.
 */
class SilencedCount {
  count = $state(0);

  constructor() {
    $effect.root(() => {
      $effect(() => {
        void session.revision;
        const accountId = session.scope;
        void api
          .silencedCount(accountId === undefined ? undefined : { accountId })
          .then((r) => (this.count = r.silenced))
          .catch(() => undefined);
      });
    });
  }
}

export const silenced = new SilencedCount();
