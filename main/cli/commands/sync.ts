import {
  accountBlockText,
  type AccountBlockReason,
  type Alert,
  alertLine,
  dnsServersFromEnv,
  type PassResult,
} from '../../core/index.ts';
import type { CommonOptions, MetricsOptions } from '../args.ts';
import { openContext, resolveSyncAccount, type CliContext } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';
import { progressPrinter } from '../progressPrinter.ts';
import { dnsUnavailableLine } from './status.ts';

/** A notifier for the terminal: each new alert becomes one line on stderr. */
function terminalNotifier(io: CliIo) {
  return {
    channel: 'cli',
    notify(alert: Alert) {
      io.stderr.write(`${alertLine(alert)}\n`);
    },
  };
}

/** How long `sync --once` waits for its pass's deliveries before it exits. */
export const ONCE_DELIVERY_WAIT_MS = 30_000;

/** Sends what the pass raised (bounded); says what is still queued, which the next run sends. */
async function deliverBeforeExit(app: CliContext['app'], io: CliIo): Promise<void> {
  if (app.channels.list().length === 0) return;
  const left = await app.flushDeliveries(ONCE_DELIVERY_WAIT_MS);
  if (left.failed > 0 || left.held > 0)
    io.stderr.write(
      `authwatch: ${left.failed + left.held} deliveries still queued` +
        `${left.held > 0 ? ` (${left.held} held by quiet hours)` : ''}; the next sync sends them ` +
        '(authwatch channels list shows why).\n',
    );
}

/** The sync command's own options. */
type SyncOptions = CommonOptions & { dnsServers: string[]; metrics?: MetricsOptions; groupWaitMs?: number };

/** `authwatch sync --once`: fetches everything stale now; exit 1 when anything failed. */
export async function syncOnce(options: SyncOptions, io: CliIo): Promise<number> {
  // A one-shot sync asks DNS only when told which resolvers to ask (the watch is a continuous thing).
  const dnsWatch = options.dnsServers.length > 0 ? { servers: options.dnsServers } : undefined;
  const ctx = openContext(options, io, {
    notifier: terminalNotifier(io),
    writer: 'authwatch sync --once',
    ...(dnsWatch ? { dnsWatch } : {}),
  });
  try {
    const account = await resolveSyncAccount(ctx, options);
    const stopProgress = progressPrinter(ctx.app, io, account.label);
    let results: PassResult[];
    const checked: { dns: Awaited<ReturnType<typeof ctx.app.checkDnsOnce>> } = { dns: null };
    try {
      // The DNS check's alerts go out in the same grouped messages as the pass's.
      results = await ctx.app.holdDeliveries(
        ctx.app.syncNow({ accountId: account.id }).then(async (r) => {
          checked.dns = await ctx.app.checkDnsOnce();
          return r;
        }),
      );
    } finally {
      stopProgress();
    }
    await deliverBeforeExit(ctx.app, io);
    const result = results[0]!;
    // What the pass did not get to is said, never passed off as synced.
    const heldBack = result.heldBack.length ? `${result.heldBack.length} not synced, ` : '';
    io.stdout.write(
      `Synced “${account.label}”: ${result.fetched} fetched, ${result.failed} failed, ${heldBack}` +
        `${result.requestsSpent} requests.\n`,
    );
    for (const e of result.errors) {
      const scope = e.missingScope ? ` (the token lacks ${e.missingScope})` : '';
      io.stderr.write(`  ${e.fqdn ?? 'account'} ${e.signal}: ${e.code}: ${e.message}${scope}\n`);
    }
    const { dns } = checked;
    if (dns) io.stdout.write(`DNS: ${dns.records} records checked, ${dns.alerts} new alerts.\n`);
    const unavailable = dns ? (await ctx.app.dnsWatchStatus()).unavailable : null;
    if (unavailable) io.stdout.write(`${dnsUnavailableLine(unavailable)}\n`);
    if (result.paused) {
      throw new CommandFailed(accountBlockText(result.paused as AccountBlockReason, account.label).body);
    }
    // Rate limited, unreachable or out of time: the pass words it, the same line the app shows.
    if (result.stopped) throw new CommandFailed(result.stopped);
    return result.failed > 0 || result.heldBack.length > 0 ? 1 : 0;
  } finally {
    await ctx.close();
  }
}

/** `authwatch sync --watch`: syncs on the schedule until interrupted; progress and alerts on stderr. */
export async function syncWatch(options: SyncOptions, io: CliIo): Promise<number> {
  // The DNS watch runs beside the sync: --dns-server's resolvers (else AUTHWATCH_DNS_SERVERS'), else the
  // settings', else the system's.
  const servers = options.dnsServers.length ? options.dnsServers : dnsServersFromEnv(io.env);
  const ctx = openContext(options, io, {
    notifier: terminalNotifier(io),
    writer: 'authwatch sync --watch',
    dnsWatch: { servers },
    liveChecks: {},
    ...(options.groupWaitMs !== undefined ? { groupWaitMs: options.groupWaitMs } : {}),
  });
  try {
    const account = await resolveSyncAccount(ctx, options);
    const stopProgress = progressPrinter(ctx.app, io, account.label);
    const unsubscribe = ctx.app.on((event) => {
      if (event.type === 'channel_state' && event.error)
        io.stderr.write(`authwatch: channel “${event.channel}”: ${event.error} (kept queued; retrying)\n`);
      if (event.type === 'account_paused')
        io.stderr.write(`authwatch: “${account.label}” paused: ${event.message}\n`);
      if (event.type === 'sync_error')
        io.stderr.write(`authwatch: ${event.signal}: ${event.code}: ${event.message}\n`);
    });
    const metrics = options.metrics ? await serveMetrics(ctx, options.metrics, io) : null;
    // Listening before saying "Ctrl-C stops": a Ctrl-C right after the line must stop cleanly too.
    const stopped = io.interrupted();
    io.stderr.write(`authwatch: watching “${account.label}” (${account.baseUrl}); Ctrl-C stops.\n`);
    ctx.app.start();
    const dns = await ctx.app.dnsWatchStatus();
    io.stderr.write(
      dns.running
        ? `authwatch: DNS watch asking ${dns.servers.join(', ')} (${dns.source}).\n`
        : 'authwatch: DNS watch off (settings).\n',
    );
    await stopped;
    await metrics?.close();
    unsubscribe();
    stopProgress();
    io.stderr.write('authwatch: stopping…\n');
    return 0;
  } finally {
    await ctx.close();
  }
}

/** Serves /metrics for the watch; the bearer token, when asked for, comes from the named variable. */
async function serveMetrics(ctx: CliContext, o: MetricsOptions, io: CliIo) {
  let bearerToken: string | null = null;
  if (o.tokenEnv !== undefined) {
    bearerToken = io.env[o.tokenEnv] ?? null;
    if (!bearerToken)
      throw new CommandFailed(`--metrics-token-env: the environment variable ${o.tokenEnv} is not set.`);
  }
  try {
    const server = await ctx.app.serveMetrics({ port: o.port, host: o.host, bearerToken });
    io.stderr.write(`authwatch: metrics at ${server.url}${bearerToken ? ' (bearer token required)' : ''}\n`);
    return server;
  } catch (error) {
    throw new CommandFailed(`Cannot serve metrics on ${o.host}:${o.port}: ${(error as Error).message}`);
  }
}
