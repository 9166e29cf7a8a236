/**
 * The bridge's method and event names as plain lists, for the preload: it runs in Electron's sandbox and
 * must stay tiny (no zod). contractNames.test.ts holds these equal to the contract's own tables.
 */
export const METHOD_NAMES = [
  'overview',
  'overviewPage',
  'domainDetail',
  'history',
  'domainSenders',
  'senderHistory',
  'listAlerts',
  'listIncidents',
  'alertRules',
  'acknowledgeAlerts',
  'snoozeAlert',
  'muteDomain',
  'unmuteDomain',
  'getSettings',
  'updateSettings',
  'pauseNotifications',
  'updateAppPreferences',
  'listAccounts',
  'addAccount',
  'testAccount',
  'updateAccount',
  'removeAccount',
  'syncNow',
  'syncStatus',
  'connectivity',
  'openDomain',
  'readPanel',
  'editOperations',
  'edit',
  'exportData',
  'openExternal',
  'listChannels',
  'saveChannel',
  'testChannel',
  'removeChannel',
  'listDigests',
  'saveDigest',
  'removeDigest',
  'getMetricsSetting',
  'setMetricsSetting',
  'domainDnsWatch',
  'dnsWatchStatus',
  'updateDnsWatch',
  'auditChanges',
  'networkStatus',
  'updateNetwork',
] as const;

export const EVENT_NAMES = [
  'changed',
  'alert',
  'alert-summary',
  'sync-progress',
  'connectivity',
  'accounts',
  'navigate',
] as const;

/** IPC channel of calls (renderer → main) and of events (main → renderer). */
export const CALL_CHANNEL = 'authwatch:call';
export const EVENT_CHANNEL = 'authwatch:event';
