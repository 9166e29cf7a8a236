/**
 * The demo's 90 days, played forward: each day the planned changes land, the real guard scan runs over every
 * domain of the portfolio (service/scan/guardScan.ts — so health, score history, DNS connect/disconnect events
 * and record snapshots are what the scanner concluded), and the receivers' reports covering the day before
 * arrive and go through the real ingestion (service/reports — so volumes, sources and TLS results are what
 * ingestion computed). A registered threat is reported to the threat list two days into its attack, as an
 * analyst would.
 */
import { scanDomain } from '../scan/guardScan.ts';
import { ingestDmarcReport } from '../reports/dmarcIngest.ts';
import { ingestTlsReport } from '../reports/tlsIngest.ts';
import { storeDashboardSnapshot } from '../reports/dashboardSnapshot.ts';
import { dateWindow } from '../http/dateWindow.ts';
import { routes as threatRoutes } from '../sandbox/threats.ts';
import { changesOn, firstDay, HISTORY_DAYS, PORTFOLIO, type DomainPlan } from './portfolio.ts';
import { dmarcReportsFor, tlsReportsFor, type GeneratedReport } from './reports.ts';
import { SENDERS, ptrName } from './senders.ts';
import { createPrng } from './prng.ts';
import { organisationOfHost } from '../reports/sourceNaming.ts';
import { publishSenderWorld } from './zone.ts';
import { publishTestDnsbl } from '../dns/testDnsbl.ts';
import { addDomain, applyChange, createGroups, instant, type SeedWorld } from './setup.ts';

/** Counts of what the history produced (for the seed's summary and its benchmark). */
export interface HistoryStats {
  scans: number;
  dmarcReports: number;
  tlsReports: number;
}

/** The source name ingestion gives the threat's addresses (their reverse DNS organisation). */
export function threatSourceName(): string {
  const sender = SENDERS.threat;
  // Its PTR names do not depend on the generator (only SendGrid's random labels do).
  const host = ptrName(sender, 0, createPrng(0))!;
  return organisationOfHost(host) ?? host;
}

async function registerThreat(world: SeedWorld, sourceName: string): Promise<void> {
  const route = threatRoutes.find((r) => r.method === 'POST' && r.path === '/threats')!;
  await route.handler(
    { params: {}, query: {}, body: { source_name: sourceName }, requestId: 'demo-seed' },
    world.ctx,
  );
}

async function ingest(
  world: SeedWorld,
  domainId: number,
  reports: GeneratedReport[],
  kind: 'dmarc' | 'tls',
  lastIngestAt: Map<number, Date>,
) {
  let n = 0;
  for (const report of reports) {
    if (report.receivedAt > world.now) continue;
    world.ctx.setNow(report.receivedAt);
    // Dashboards are stored once at the end, not recomputed for every one of thousands of reports.
    const options = { domainId, refreshDashboard: false };
    if (kind === 'dmarc') await ingestDmarcReport(world.ctx, report.bytes, options);
    else await ingestTlsReport(world.ctx, report.bytes, options);
    lastIngestAt.set(domainId, report.receivedAt);
    n++;
  }
  return n;
}

/** Builds the portfolio and plays its history up to `world.now`. */
export async function playHistory(world: SeedWorld): Promise<HistoryStats> {
  const { now } = world;
  const stats: HistoryStats = { scans: 0, dmarcReports: 0, tlsReports: 0 };
  const start = -HISTORY_DAYS;
  const origin = instant(now, -Math.max(...PORTFOLIO.map((p) => p.addedDaysAgo)), -4);
  publishSenderWorld(world.ctx.db, world.prng, origin);
  publishTestDnsbl(world.ctx.db, origin);
  world.ctx.dnsChanged();
  await createGroups(world, origin);
  // Domains older than the history were set up on the day they were added.
  for (const plan of PORTFOLIO) {
    if (firstDay(plan) === start && plan.addedDaysAgo >= HISTORY_DAYS) {
      await addDomain(world, plan, instant(now, -plan.addedDaysAgo, -3));
    }
  }
  const threat = PORTFOLIO.flatMap((p) => p.abuse).find((a) => a.sender === 'threat');
  const live: DomainPlan[] = [];
  const lastIngestAt = new Map<number, Date>();
  for (let day = start; day <= 0; day++) {
    for (const plan of PORTFOLIO) {
      if (firstDay(plan) !== day) continue;
      if (!world.domainIds.has(plan.fqdn)) await addDomain(world, plan, instant(now, day, -3));
      live.push(plan);
    }
    for (const plan of live) {
      for (const change of changesOn(plan, day))
        await applyChange(world, plan, change, instant(now, day, -2));
    }
    if (threat && day === threat.from + 2) {
      world.ctx.setNow(instant(now, day, -1));
      await registerThreat(world, threatSourceName());
    }
    for (const plan of live) {
      world.ctx.setNow(instant(now, day));
      await scanDomain(world.ctx, world.domainIds.get(plan.fqdn)!, instant(now, day));
      stats.scans++;
    }
    // Reports of the previous UTC day arrive in the early hours.
    const reportDay = day - 1;
    for (const plan of live) {
      if (reportDay < firstDay(plan)) continue;
      const id = world.domainIds.get(plan.fqdn)!;
      const prng = world.prng.fork(`${plan.fqdn}:${reportDay}`);
      const dmarc = dmarcReportsFor(plan, now, reportDay, prng.fork('dmarc'));
      stats.dmarcReports += await ingest(world, id, dmarc, 'dmarc', lastIngestAt);
      const tls = tlsReportsFor(plan, now, reportDay, prng.fork('tls'));
      stats.tlsReports += await ingest(world, id, tls, 'tls', lastIngestAt);
    }
  }
  // Each domain's dashboard as the ingestion of its latest report left it, over the default 30-day window
  // ending today: no report arrived since, so it holds what a recompute now would. (The window of the last
  // ingest's day left a demo seeded after midnight UTC, before yesterday's reports come in, without a
  // snapshot for today's window until the next report.)
  for (const [domainId, at] of lastIngestAt) {
    storeDashboardSnapshot(
      world.ctx.db,
      domainId,
      dateWindow({}, () => now),
      at,
    );
  }
  return stats;
}
