import {
  Counter,
  Gauge,
  Registry,
  type OpenMetricsContentType,
  type PrometheusContentType,
} from 'prom-client';
import type { ApiEvent } from '../../../shared/api/events.ts';
import type { RateBudgetSnapshot } from '../../../shared/api/rateBudget.ts';
import type { Severity } from '../alerts/types.ts';
import type { Mirror } from '../mirror/types.ts';
import { PROTOCOLS } from '../signals/primitives.ts';
import { registerDnsCheckMetrics } from './dnsCheckMetrics.ts';
import { registerLiveCheckMetrics, type ExpiringCheck } from './liveCheckMetrics.ts';

/** Failing mail is summed over this many days (the window of a weekly look). */
const FAILING_DAYS = 7;
const SEVERITIES: readonly Severity[] = ['critical', 'warning', 'info'];

/** What the metrics read besides the mirror: the rate budgets of the accounts syncing now. */
export interface MetricsSources {
  mirror: Mirror;
  budgets(): Map<number, RateBudgetSnapshot>;
  now(): number;
  /** The live checks (livechecks/registry.ts's LIVE_CHECKS), for the certificates' days to expiry. */
  liveChecks: Readonly<Record<string, ExpiringCheck>>;
}

/** The registry a /metrics endpoint serves, and the hook that counts API calls. */
export interface AuthwatchMetrics {
  /** The same metrics in the OpenMetrics text format (what Prometheus asks for) … */
  registry: Registry<OpenMetricsContentType>;
  /** … and in Prometheus' classic text format (curl, promtool check metrics). */
  textRegistry: Registry<PrometheusContentType>;
  /** Counts an API client event of an account (requests, 429s). */
  observeApi(accountId: number, event: ApiEvent): void;
}

/**
 * The metrics, read from the mirror at scrape time (OpenMetrics through prom-client). Label names are the
 * Alertmanager alerts' (`account`, `domain`, `protocol`, `severity`) plus `signal`; every label set is
 * bounded by the portfolio (accounts × domains × five protocols, three severities, the signal catalog).
 */
export function createMetrics(sources: MetricsSources): AuthwatchMetrics {
  const { mirror } = sources;
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const textRegistry = new Registry<PrometheusContentType>();
  const registers = [registry, textRegistry] as Registry[];
  registerDnsCheckMetrics(registers, mirror);
  const labelOf = (accountId: number) =>
    mirror.listAccounts().find((a) => a.id === accountId)?.label ?? String(accountId);

  new Gauge({
    name: 'authwatch_protocol_passing',
    help: 'Whether the protocol passes on the domain per its newest health scan (1 passing, 0 failing; absent before the first scan).',
    labelNames: ['account', 'domain', 'protocol'],
    registers,
    collect() {
      this.reset();
      for (const row of mirror.overview()) {
        const protocols = row.health?.protocols ?? {};
        for (const protocol of PROTOCOLS) {
          const passing = protocols[protocol];
          if (passing === undefined) continue;
          this.set({ account: row.accountLabel, domain: row.fqdn, protocol }, passing ? 1 : 0);
        }
      }
    },
  });

  new Gauge({
    name: 'authwatch_domain_score',
    help: 'The domain’s newest email security score (0–10).',
    labelNames: ['account', 'domain'],
    registers,
    collect() {
      this.reset();
      for (const row of mirror.overview())
        if (row.score) this.set({ account: row.accountLabel, domain: row.fqdn }, row.score.score);
    },
  });

  new Gauge({
    name: 'authwatch_domain_failing_messages',
    help: `Messages failing DMARC for the domain over the last ${FAILING_DAYS} days of reports.`,
    labelNames: ['account', 'domain'],
    registers,
    collect() {
      this.reset();
      const since = sources.now() - FAILING_DAYS * 86_400_000;
      for (const row of mirror.overview()) {
        const days = mirror.history('mail_volume', {
          accountId: row.accountId,
          domainId: row.domainId,
          since,
        });
        if (days.length === 0) continue;
        const failing = days.reduce((sum, d) => sum + (d.dmarcFail ?? 0), 0);
        this.set({ account: row.accountLabel, domain: row.fqdn }, failing);
      }
    },
  });

  new Gauge({
    name: 'authwatch_open_alerts',
    help: 'Open (unresolved, not acknowledged) alerts by severity.',
    labelNames: ['account', 'severity'],
    registers,
    collect() {
      this.reset();
      const open = mirror.listAlerts({ open: true, limit: 'all' }).filter((a) => a.acknowledgedAt === null);
      for (const account of mirror.listAccounts())
        for (const severity of SEVERITIES)
          this.set(
            { account: account.label, severity },
            open.filter((a) => a.accountId === account.id && a.severity === severity).length,
          );
    },
  });

  new Gauge({
    name: 'authwatch_signal_last_success_timestamp_seconds',
    help: 'When the signal was last fetched successfully for any domain of the account (Unix seconds).',
    labelNames: ['account', 'signal'],
    registers,
    collect() {
      this.reset();
      for (const account of mirror.listAccounts()) {
        const newest = new Map<string, number>();
        for (const s of mirror.getSyncStates(account.id)) {
          if (!s.lastSuccessAt) continue;
          const at = Date.parse(s.lastSuccessAt) / 1000;
          if (at > (newest.get(s.signal) ?? 0)) newest.set(s.signal, at);
        }
        for (const [signal, at] of newest) this.set({ account: account.label, signal }, at);
      }
    },
  });

  new Gauge({
    name: 'authwatch_rate_budget_available',
    help: 'Requests the account’s rate budget can spend right now.',
    labelNames: ['account'],
    registers,
    collect() {
      this.reset();
      for (const [id, snap] of sources.budgets()) this.set({ account: labelOf(id) }, snap.available);
    },
  });

  new Gauge({
    name: 'authwatch_rate_budget_capacity',
    help: 'Size of the account’s rate budget (its burst).',
    labelNames: ['account'],
    registers,
    collect() {
      this.reset();
      for (const [id, snap] of sources.budgets()) this.set({ account: labelOf(id) }, snap.capacity);
    },
  });

  registerLiveCheckMetrics(mirror, registers, sources.now, sources.liveChecks);

  const requests = new Counter({
    name: 'authwatch_api_requests',
    help: 'HTTP requests sent to the service (every attempt).',
    labelNames: ['account'],
    registers,
  });
  const limited = new Counter({
    name: 'authwatch_api_rate_limited',
    help: 'Answers 429 Too Many Requests from the service.',
    labelNames: ['account'],
    registers,
  });

  return {
    registry,
    textRegistry,
    observeApi(accountId, event) {
      if (event.type === 'attempt') requests.inc({ account: labelOf(accountId) });
      if (event.type === 'response' && event.status === 429) limited.inc({ account: labelOf(accountId) });
    },
  };
}
