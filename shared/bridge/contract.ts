import { z } from 'zod';
import * as args from './args.ts';
import { alertRuleInfoSchema } from './alertRules.ts';
import { auditChangeSchema, auditChangesArgs } from './auditChanges.ts';
import { dnsWatchStatusSchema, domainDnsWatchSchema, updateDnsWatchArgs } from './dnsWatch.ts';
import type { BridgeEventName, BridgeEventPayload } from './events.ts';
import { networkStatusSchema, updateNetworkArgs } from './network.ts';
import { expiringSoonSchema } from './expiringSoon.ts';
import {
  appLiveChecksSchema,
  domainLiveChecksSchema,
  liveChecksStatusSchema,
  updateLiveChecksArgs,
} from './liveChecks.ts';
import {
  channelRef,
  removeChannelArgs,
  removedChannelSchema,
  channelTestSchema,
  channelViewSchema,
  metricsSettingSchema,
  saveChannelArgs,
  savedChannelSchema,
  setMetricsArgs,
} from './channels.ts';
import { acknowledgeAlertArgs, alertIdRef, alertLifecycleSchema } from './acknowledgements.ts';
import { maintenanceRef, maintenanceViewSchema, saveMaintenanceArgs } from './maintenance.ts';
import { importRoutesArgs, routeFileResultSchema } from './routeFile.ts';
import { routeTestArgs, routeTestSchema, routeViewSchema, saveRoutesArgs } from './routes.ts';
import { saveSilenceArgs, silencedCountSchema, silenceRef, silenceViewSchema } from './silences.ts';
import { digestRef, digestViewSchema, saveDigestArgs } from './digests.ts';
import { overviewPageArgs, overviewPageSchema } from './overviewPage.ts';
import { incidentSchema, listIncidentsArgs } from './incidents.ts';
import { panelResultSchema, type PanelResult } from './panelData.ts';
import type { PanelName } from './panels.ts';
import type { EditOperationName } from './editOperationNames.ts';
import type { EditBody } from './editTypes.ts';
import { domainSendersArgs, senderHistoryArgs, senderPollSchema, senderSummarySchema } from './senders.ts';
import {
  accountIdentitySchema,
  accountViewSchema,
  alertSchema,
  connectivitySchema,
  domainDetailSchema,
  editOperationInfoSchema,
  editResultSchema,
  type EditResult,
  exportResultSchema,
  historyResultSchema,
  overviewRowSchema,
  passResultSchema,
  settingsSchema,
  syncStatusSchema,
  tokenCheckSchema,
  type HistoryKind,
  type HistoryRows,
} from './results.ts';

const none = z.undefined();

/**
 * The one contract between the renderer and main: every method's argument and result schema. The preload
 * (Electron), the IPC handlers, the browser host's WebSocket and the renderer's `window.authwatch` all follow
 * from this table; nothing else crosses.
 */
export const BRIDGE_METHODS = {
  overview: { args: args.accountScope, result: z.array(overviewRowSchema) },
  overviewPage: { args: overviewPageArgs, result: overviewPageSchema },
  domainDetail: { args: args.domainRef, result: domainDetailSchema.nullable() },
  history: { args: args.historyArgs, result: historyResultSchema },
  domainSenders: { args: domainSendersArgs, result: z.array(senderSummarySchema) },
  senderHistory: { args: senderHistoryArgs, result: z.array(senderPollSchema) },
  listAlerts: { args: args.listAlertsArgs, result: z.array(alertSchema) },
  listIncidents: { args: listIncidentsArgs, result: z.array(incidentSchema) },
  alertRules: { args: none, result: z.array(alertRuleInfoSchema) },
  acknowledgeAlerts: { args: args.acknowledgeArgs, result: z.object({ acknowledged: z.number() }) },
  snoozeAlert: { args: args.snoozeArgs, result: alertSchema },
  muteDomain: { args: args.muteArgs, result: z.object({ muted: z.literal(true) }) },
  unmuteDomain: { args: args.domainRef, result: z.object({ muted: z.literal(false) }) },
  getSettings: { args: none, result: settingsSchema },
  updateSettings: { args: args.updateSettingsArgs, result: settingsSchema },
  pauseNotifications: { args: args.pauseNotificationsArgs, result: settingsSchema },
  updateAppPreferences: { args: args.updateAppPreferencesArgs, result: settingsSchema },
  listAccounts: { args: none, result: z.array(accountViewSchema) },
  addAccount: {
    args: args.addAccountArgs,
    result: z.object({ account: accountViewSchema, identity: accountIdentitySchema }),
  },
  testAccount: { args: args.accountRef, result: tokenCheckSchema },
  updateAccount: { args: args.updateAccountArgs, result: accountViewSchema },
  removeAccount: {
    args: args.accountRef,
    result: z.object({ removed: z.boolean(), secretDeleted: z.boolean() }),
  },
  syncNow: { args: args.accountScope, result: z.array(passResultSchema) },
  syncStatus: { args: none, result: syncStatusSchema },
  connectivity: { args: none, result: z.array(connectivitySchema) },
  openDomain: { args: args.domainRef, result: domainDetailSchema },
  readPanel: { args: args.readPanelArgs, result: panelResultSchema },
  editOperations: { args: none, result: z.array(editOperationInfoSchema) },
  edit: { args: args.editArgs, result: editResultSchema },
  exportData: { args: args.exportArgs, result: exportResultSchema },
  openExternal: { args: args.openExternalArgs, result: z.object({ opened: z.boolean() }) },
  listChannels: { args: none, result: z.array(channelViewSchema) },
  saveChannel: { args: saveChannelArgs, result: savedChannelSchema },
  testChannel: { args: channelRef, result: channelTestSchema },
  removeChannel: { args: removeChannelArgs, result: removedChannelSchema },
  listDigests: { args: none, result: z.array(digestViewSchema) },
  saveDigest: { args: saveDigestArgs, result: digestViewSchema },
  removeDigest: { args: digestRef, result: z.object({ removed: z.boolean() }) },
  getMetricsSetting: { args: none, result: metricsSettingSchema },
  setMetricsSetting: { args: setMetricsArgs, result: metricsSettingSchema },
  domainDnsWatch: { args: args.domainRef, result: domainDnsWatchSchema },
  dnsWatchStatus: { args: none, result: dnsWatchStatusSchema },
  updateDnsWatch: { args: updateDnsWatchArgs, result: dnsWatchStatusSchema },
  auditChanges: { args: auditChangesArgs, result: z.array(auditChangeSchema) },
  listSilences: { args: none, result: z.array(silenceViewSchema) },
  saveSilence: { args: saveSilenceArgs, result: silenceViewSchema },
  expireSilence: { args: silenceRef, result: silenceViewSchema },
  silencedCount: { args: args.accountScope, result: silencedCountSchema },
  acknowledgeAlert: { args: acknowledgeAlertArgs, result: alertSchema },
  unacknowledgeAlert: { args: alertIdRef, result: alertSchema },
  alertLifecycle: { args: alertIdRef, result: alertLifecycleSchema },
  listRoutes: { args: none, result: z.array(routeViewSchema) },
  saveRoutes: { args: saveRoutesArgs, result: z.array(routeViewSchema) },
  routeTest: { args: routeTestArgs, result: routeTestSchema },
  exportRoutes: { args: none, result: routeFileResultSchema },
  importRoutes: { args: importRoutesArgs, result: z.array(routeViewSchema) },
  listMaintenance: { args: none, result: z.array(maintenanceViewSchema) },
  addMaintenance: { args: saveMaintenanceArgs, result: maintenanceViewSchema },
  removeMaintenance: { args: maintenanceRef, result: z.object({ removed: z.boolean() }) },
  networkStatus: { args: none, result: networkStatusSchema },
  updateNetwork: { args: updateNetworkArgs, result: networkStatusSchema },
  domainLiveChecks: { args: args.domainRef, result: domainLiveChecksSchema },
  liveChecksStatus: { args: none, result: liveChecksStatusSchema },
  appLiveChecks: { args: none, result: appLiveChecksSchema },
  updateLiveChecks: { args: updateLiveChecksArgs, result: liveChecksStatusSchema },
  expiringSoon: { args: args.accountScope, result: expiringSoonSchema },
} as const;

/** Name of a bridge method. */
export type BridgeMethodName = keyof typeof BRIDGE_METHODS;
/** Every method name, in table order. */
export const BRIDGE_METHOD_NAMES = Object.keys(BRIDGE_METHODS) as BridgeMethodName[];

/** True when `name` is a method of the contract (own property: no prototype names). */
export function isBridgeMethod(name: unknown): name is BridgeMethodName {
  return typeof name === 'string' && Object.hasOwn(BRIDGE_METHODS, name);
}

type ArgsOf<K extends BridgeMethodName> = z.input<(typeof BRIDGE_METHODS)[K]['args']>;
type ResultOf<K extends BridgeMethodName> = z.output<(typeof BRIDGE_METHODS)[K]['result']>;
type Method<K extends BridgeMethodName> =
  undefined extends ArgsOf<K>
    ? (args?: ArgsOf<K>) => Promise<ResultOf<K>>
    : (args: ArgsOf<K>) => Promise<ResultOf<K>>;

/** The methods main serves (the facade implements them; shells add openExternal). */
export type BridgeMethods = {
  [K in Exclude<BridgeMethodName, 'history' | 'readPanel' | 'edit'>]: Method<K>;
} & {
  history<K extends HistoryKind>(args: ArgsOf<'history'> & { kind: K }): Promise<HistoryRows[K][]>;
  /** Each panel's data typed from the operation its path names in openapi.yaml. */
  readPanel<P extends PanelName>(args: ArgsOf<'readPanel'> & { panel: P }): Promise<PanelResult<P>>;
  /** Each operation's body and answer typed from its operationId in openapi.yaml. */
  edit<O extends EditOperationName>(args: EditArgs<O>): Promise<EditResult<O>>;
};

/** The arguments of edit O: its body is the operation's request body (left out when it takes none). */
type EditArgs<O extends EditOperationName> = Omit<ArgsOf<'edit'>, 'operation' | 'body'> & {
  operation: O;
  body?: EditBody<O>;
};

/** What the renderer sees as `window.authwatch`: the methods plus event subscription. */
export type BridgeApi = BridgeMethods & {
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEventPayload<E>) => void): () => void;
};

export { BridgeError, type BridgeErrorData } from './bridgeError.ts';
