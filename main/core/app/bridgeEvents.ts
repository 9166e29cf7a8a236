import type { BridgeEvent } from '../../../shared/bridge/events.ts';
import { checkedEvent } from '../../../shared/bridge/serve.ts';
import { summaryText } from '../alerts/notificationWords.ts';
import { notificationText } from './alertText.ts';
import type { AuthwatchEvent } from './wiring.ts';

/**
 * The bridge event a facade event becomes (null: shells keep it to themselves). Every shell forwards
 * through this one mapping, so Electron and the browser host tell the renderer the same things.
 */
export function toBridgeEvent(e: AuthwatchEvent): BridgeEvent | null {
  switch (e.type) {
    case 'changed':
      return checkedEvent('changed', { accountId: e.accountId, domainId: e.domainId, what: e.signal });
    case 'alerts_changed':
      return checkedEvent('changed', { accountId: e.accountId, domainId: null, what: 'alerts' });
    case 'settings_changed':
      return checkedEvent('changed', { accountId: null, domainId: null, what: 'settings' });
    case 'panel_changed':
      return checkedEvent('changed', { accountId: e.accountId, domainId: e.domainId, what: 'panel' });
    case 'dns_watch_changed':
      return checkedEvent('changed', { accountId: e.accountId, domainId: e.domainId, what: 'dns_watch' });
    case 'live_check_changed':
      return checkedEvent('changed', { accountId: e.accountId, domainId: e.domainId, what: 'live_checks' });
    case 'alert_delivered':
      // The browser window notifies with the same words as the desktop's native notification.
      return checkedEvent('alert', { ...e.alert, notification: notificationText(e.alert) });
    case 'alerts_summarized':
      return checkedEvent('alert-summary', { ...e.summary, notification: summaryText(e.summary) });
    case 'accounts_changed':
      return checkedEvent('accounts', {});
    case 'connectivity':
      return checkedEvent('connectivity', e.state);
    case 'channel_state':
      return null;
    case 'progress':
    case 'sync_error':
    case 'account_paused':
    case 'rate_limited':
      return checkedEvent('sync-progress', e);
  }
}
