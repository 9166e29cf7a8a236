// The app core's public surface: the only module of main/core the shells (main/electron, main/host,
// main/cli) and scripts/ may import — ESLint's "layering/public-surface" rule refuses a deeper path. A shell
// calls openRuntime() and adds what is truly its own: window and tray, HTTP and WebSocket, or the terminal.

// Assembling the app.
export { openRuntime, type Runtime } from './runtime/openRuntime.ts';
export { MirrorBusyError } from './runtime/writerRole.ts';
export { defaultDbPath } from './mirror/defaultPath.ts';
export { describeStartupError } from './app/startupError.ts';
export type { DnsWatchOptions } from './dnswatch/dnsWatchRuntime.ts';
export type { LiveCheckOptions } from './livechecks/liveCheckRuntime.ts';
export { DNS_SERVERS_ENV, dnsServersFromEnv, parseServer } from './dnswatch/watchSettings.ts';
export { addDemoAccount, DEMO_ACCOUNT_ENV } from './app/demoAccount.ts';

// The facade and its events.
export { AuthwatchError, notificationText, summaryText, type Authwatch, type Notifier } from './app.ts';
export { alertLine } from './app/alertText.ts';

// Secret stores a shell chains (Electron: the keychain, else its safeStorage file).
export { fallbackSecretStore } from './accounts/fallbackSecretStore.ts';
export { keytarSecretStore } from './accounts/keytarSecretStore.ts';
export { SecretStoreError, type SecretStore } from './accounts/secretStore.ts';
export { sessionSecretStore } from './accounts/sessionSecretStore.ts';

// Adding an account from the terminal (the token is checked with GET /auth/me before anything is saved).
export { accountKey } from './accounts/accountKey.ts';
export { TOKEN_ENV_VAR } from './accounts/envSecretStore.ts';
export { parseIdentity } from './accounts/identity.ts';

// The built renderer as every shell serves it.
export {
  readRendererFile,
  rendererContentSecurityPolicy,
  rendererFilePath,
  rendererFileType,
} from './app/rendererFiles.ts';

// Words and records the terminal prints.
export {
  accountBlockText,
  PASS_BASE_TIME_LIMIT_MS,
  PASS_RATE_LIMIT_PATIENCE_MS,
  type AccountBlockReason,
} from './sync/failurePolicy.ts';
export type { PassResult } from './sync/accountSyncer.ts';
export { alertJson, EXPORT_COLUMNS, exportRecord } from './export/records.ts';
export { toCsv } from './export/csv.ts';
export type { Account, Alert, Mirror, MirrorOverviewRow } from './mirror/types.ts';
export type { Severity } from './alerts/types.ts';
export type { ChannelDraft } from './delivery/channelDraft.ts';
export { DeliveryError } from './delivery/deliveryError.ts';
export { ChannelInUseError } from './delivery/channelService.ts';
export { describeChannel } from './delivery/channelWords.ts';
export { urlCarriesSecret } from './delivery/urlSecrets.ts';
export { digestHtml } from './delivery/digest.ts';
export { isTimeZone, parseWeeklyTime, WEEKDAYS } from './alerts/weeklySlot.ts';
export { parseDuration, parseUntil } from './alerts/silences.ts';
export type { SilenceView } from '../../shared/bridge/silences.ts';
export type { Channel } from './mirror/deliveryTypes.ts';

// The one status model, as the tray and `authwatch status` show it.
export { portfolioCounts, TRAY_STATUSES, trayStatus, type TrayStatus } from './status/index.ts';

// Recording a signal's answers from the reference service as fixtures (scripts/recordAnswer.ts).
export { isSignalName, SIGNAL_NAMES, SIGNALS } from './signals/catalog.ts';
export { decodeSignal } from './signals/decode.ts';
export { signalFileName } from './signals/registry.ts';
export { fetchAnswer } from './sync/signalFetcher.ts';
export type { LooseApi } from './sync/looseApi.ts';
