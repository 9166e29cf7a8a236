/**
 * Every polled signal, by name: one definition each (./defs). The signal names are this object's keys — the
 * bridge carries them as strings (shared/bridge/results.ts `signalName`) with their words, so a signal is
 * added here and in its definition file, nowhere else. The planner's job lists, the decoder, the mirror's writes and reads and the words for
 * people all derive from here (./catalog.ts).
 *
 * The order is the order jobs are built in (the domain list, the core signals, the history series, then the
 * panels a user opened), which the planner keeps among equals.
 */
import type { SignalDefinition } from './definition.ts';
import { dashboardCache } from './defs/dashboardCache.ts';
import { dnsChanges } from './defs/dnsChanges.ts';
import { dnsCurrent } from './defs/dnsCurrent.ts';
import { dnsHistory } from './defs/dnsHistory.ts';
import { dnsSnapshots } from './defs/dnsSnapshots.ts';
import { dnsTimeline } from './defs/dnsTimeline.ts';
import { domains } from './defs/domains.ts';
import { failedSources } from './defs/failedSources.ts';
import { health } from './defs/health.ts';
import { healthHistory } from './defs/healthHistory.ts';
import { mailVolume } from './defs/mailVolume.ts';
import { mtaSts } from './defs/mtaSts.ts';
import { scoreHistory } from './defs/scoreHistory.ts';
import { securityScore } from './defs/securityScore.ts';
import { sendingServices } from './defs/sendingServices.ts';
import { tlsRpt } from './defs/tlsRpt.ts';

/** Every signal's definition, keyed by name. */
export const SIGNAL_DEFINITIONS = {
  domains,
  dns_changes: dnsChanges,
  health,
  failed_sources: failedSources,
  security_score: securityScore,
  health_history: healthHistory,
  score_history: scoreHistory,
  sending_services: sendingServices,
  mail_volume: mailVolume,
  dns_timeline: dnsTimeline,
  dns_current: dnsCurrent,
  dns_history: dnsHistory,
  dns_snapshots: dnsSnapshots,
  tls_rpt: tlsRpt,
  dashboard_cache: dashboardCache,
  mta_sts: mtaSts,
} satisfies Record<string, SignalDefinition>;

/** Name of a polled signal: a key of the registry. */
export type SignalName = keyof typeof SIGNAL_DEFINITIONS;
