import type { CommonOptions } from '../args.ts';
import { openContext, selectAccounts } from '../context.ts';
import type { CliIo } from '../io.ts';
import { formatDuration } from '../progressPrinter.ts';
import type { DnsWatchStatus } from '../../../shared/bridge/dnsWatch.ts';
import { liveChecksLines } from './checks.ts';
import { networkNow, type NetworkStatus } from '../../../shared/bridge/network.ts';

function ago(iso: string | null, now: number): string {
  return iso === null
    ? 'never'
    : `${formatDuration(Math.max(0, Math.round((now - Date.parse(iso)) / 1000)))} ago`;
}

/** A resolver the DNS watch cannot trust, in words with what to do (`status` and `sync --once` say it). */
export function dnsUnavailableLine(u: { reason: string }): string {
  return (
    `DNS unavailable: ${u.reason}. The watch ignores its answers — pick a resolver ` +
    `(Settings → DNS watch, or --dns-server HOST[:PORT]).`
  );
}

/** The way out (proxy, extra CA) and what stops it, as `status` prints it: no secret, no password. */
function networkLines(n: NetworkStatus): string {
  const ca = [n.caFileFromStart, n.settings.caFile].filter(Boolean).join(', ');
  return (
    `Network    ${networkNow(n)}${ca ? ` Extra CA: ${ca}.` : ''}\n` +
    (n.problem ? `           ${n.problem}\n` : '')
  );
}

/**
 * While the backfill waits for the first day's alert reads (issue 37), when it starts, in the user's
 * locale: the sidebar says the same.
 */
function backfillWait(startsAt: string | null | undefined): string {
  if (!startsAt) return '';
  return ` (the first day's alert reads come first; starts ${new Date(startsAt).toLocaleString()})`;
}

/** The DNS watch's freshness and pace, as `status` prints it. */
export function dnsWatchLines(d: DnsWatchStatus, now: number): string {
  const s = d.settings;
  if (!s.enabled) return 'DNS watch  off (settings)\n';
  const servers = d.servers.length ? d.servers.join(', ') : 'the system resolvers';
  const lines = [
    `DNS watch  ${servers} (${d.source}); ${d.records} records; newest answer ${ago(d.newestCheckedAt, now)}, ` +
      `oldest ${ago(d.oldestCheckedAt, now)}; ${d.unknown} unknown (resolver trouble)`,
    `  cadence: each record's TTL within ${formatDuration(s.floorSeconds)}–${formatDuration(s.ceilingSeconds)}, ` +
      `at most ${s.ratePerSecond} queries/s per resolver` +
      (d.paceAt
        ? `; ${d.queriesPerSecond.toFixed(1)} queries/s measured ${ago(d.paceAt, now)}, a full round ~${formatDuration(Math.ceil(d.roundSeconds))}`
        : ''),
  ];
  if (d.unavailable) lines.push(`  ${dnsUnavailableLine(d.unavailable)}`);
  return lines.join('\n') + '\n';
}

import { portfolioCounts, type MirrorOverviewRow } from '../../core/index.ts';

const MARK = { problem: '✕', warning: '!', unknown: '?', good: '✓' } as const;

/** One account's domains by the one status model: counts that add up, then each domain not all clear. */
function domainStatus(rows: readonly MirrorOverviewRow[]) {
  const counts = portfolioCounts(rows.map((r) => r.posture));
  const notClear = rows
    .filter((r) => r.posture.verdict.level !== 'good')
    .sort((a, b) => a.fqdn.localeCompare(b.fqdn))
    .map((r) => ({
      fqdn: r.fqdn,
      level: r.posture.verdict.level,
      words: r.posture.verdict.words,
      reasons: r.posture.verdict.reasons,
      protocols: r.posture.protocolsText,
    }));
  return { counts, notClear };
}

/** `authwatch status`: accounts, freshness, effective periods and errors, from the mirror (no network). */
export async function status(options: CommonOptions & { json: boolean }, io: CliIo): Promise<number> {
  const ctx = openContext(options, io);
  try {
    const ids = new Set(selectAccounts(ctx.app, options.label).map((a) => a.id));
    const all = await ctx.app.syncStatus();
    const accounts = all.accounts.filter((a) => ids.has(a.accountId));
    const openAlerts = (await ctx.app.listAlerts({ open: true, limit: 10_000 })).filter((a) =>
      ids.has(a.accountId),
    );
    // Domains that left an account's list stay in the mirror with their history and alerts: say so.
    const rows = ctx.app.domainPostures();
    const domainsOf = (accountId: number) => domainStatus(rows.filter((r) => r.accountId === accountId));
    const removedDomains = (accountId: number) => ctx.app.removedDomains(accountId);
    const dnsWatch = await ctx.app.dnsWatchStatus();
    if (options.json) {
      const out = accounts.map((a) => ({
        ...a,
        openAlerts: openAlerts.filter((x) => x.accountId === a.accountId).length,
        removedDomains: removedDomains(a.accountId),
        // The watch covers every account's domains; each entry carries it so the array stays the shape it was.
        dnsWatch,
        domains: domainsOf(a.accountId),
      }));
      io.stdout.write(JSON.stringify(out, null, 2) + '\n');
      return 0;
    }
    if (accounts.length === 0)
      io.stdout.write('No accounts. Add one with: authwatch sync --once --base-url URL --label NAME\n');
    for (const a of accounts) {
      const state =
        a.state === 'paused'
          ? `PAUSED (${a.pausedReason})`
          : a.state === 'rate_limited'
            ? 'rate limited'
            : 'active';
      io.stdout.write(`${a.label}  ${a.baseUrl}  ${state}\n`);
      io.stdout.write(
        `  domains watched ${a.backfill.domainsWatched ?? a.backfill.domainsDone}/${a.backfill.domainsTotal}, history back-filled ${a.backfill.domainsDone}/${a.backfill.domainsTotal}${backfillWait(a.backfill.startsAt)}; last success ${a.lastSuccessAt ?? 'never'}; ` +
          `open alerts ${openAlerts.filter((x) => x.accountId === a.accountId).length}\n`,
      );
      const d = domainsOf(a.accountId);
      const v = d.counts.byVerdict;
      io.stdout.write(
        `  ${d.counts.domains} domains: ${v.problem} with problems, ${v.warning} with warnings, ` +
          `${v.good} no problems found${v.unknown ? `, ${v.unknown} not checked yet` : ''}; ` +
          `${d.counts.failingAny} failing a protocol, ${d.counts.optionalNotSetUpAny} without an optional protocol (not a failure)\n`,
      );
      for (const x of d.notClear) {
        io.stdout.write(
          `    ${MARK[x.level]} ${x.fqdn}: ${x.reasons.length ? x.reasons.join('; ') : x.words}\n`,
        );
      }
      io.stdout.write(
        `  demand ${a.demandPerMinute}/min of ${a.capacityPerMinute}/min` +
          (a.stretchFactor > 1 ? ` — periods stretched ×${a.stretchFactor}` : '') +
          '\n',
      );
      for (const [signal, p] of Object.entries(a.periods)) {
        if (!p) continue;
        const stretched =
          p.effectiveSeconds !== p.targetSeconds ? ` (target ${formatDuration(p.targetSeconds)})` : '';
        io.stdout.write(
          `    ${signal.padEnd(16)} every ${formatDuration(p.effectiveSeconds)}${stretched} × ${p.jobs}\n`,
        );
      }
      for (const d of removedDomains(a.accountId)) {
        io.stdout.write(`  removed ${d.fqdn} (no longer in the account since ${d.removedAt}; history kept)
`);
      }
      for (const e of a.errors) {
        const scope = e.missingScope ? ` (token lacks ${e.missingScope})` : '';
        io.stdout.write(`  error ${e.fqdn ?? 'account'} ${e.signal}: ${e.code}: ${e.message}${scope}\n`);
      }
    }
    if (accounts.length > 0) io.stdout.write(dnsWatchLines(dnsWatch, Date.now()));
    if (accounts.length > 0) io.stdout.write(liveChecksLines(await ctx.app.liveChecksStatus()));
    io.stdout.write(networkLines(await ctx.app.networkStatus()));
    return 0;
  } finally {
    await ctx.close();
  }
}
