/**
 * The escalation and repeat sweep at 5,000 open alerts (smoke: 210): what one look costs while nothing is
 * due — the sender makes it before its rounds, at most every 5 s, whenever a route repeats — and the first
 * look, which reads every open alert once.
 */
import { DEFAULT_ROUTE } from '../../main/core/delivery/routing.ts';
import { openMirror } from '../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../main/core/status/statusModel.ts';
import { webhookChannel } from '../unit/core/delivery/recordingOutbox.ts';
import { report, timeIt } from './measure.ts';
import type { Scale } from './scale.ts';

/** Seeds `count` domains whose SPF disconnected (one open critical each) under a repeating route. */
export async function benchEscalationSweep(scale: Scale): Promise<void> {
  // Each domain whose SPF goes raises three open alerts (the disconnection, the score, the verdict).
  const count = scale === 'smoke' ? 70 : 1_667;
  let t = Date.parse('2026-01-01T00:00:00Z');
  const mirror = openMirror(':memory:', { clock: { now: () => t }, status: STATUS_MODEL });
  const account = mirror.upsertAccount({ label: 'bench', baseUrl: 'http://127.0.0.1:1/api/v1' });
  const domains = Array.from({ length: count }, (_, i) => ({ id: i + 1, fqdn: `d${i + 1}.example` }));
  mirror.writeSignal({
    accountId: account.id,
    domainId: null,
    signal: 'domains',
    payload: domains,
    fetchedAt: t,
  });
  const team = mirror.delivery.addChannel(webhookChannel('team'));
  mirror.routes.replace([
    {
      ...DEFAULT_ROUTE,
      name: 'Team',
      isDefault: false,
      channelIds: [team.id],
      repeatMinutes: 240,
      escalateAfterMinutes: 30,
      escalateTo: [team.id],
    },
    DEFAULT_ROUTE,
  ]);
  const health = (spf: boolean) => (d: { id: number; fqdn: string }) =>
    mirror.writeSignal({
      accountId: account.id,
      domainId: d.id,
      signal: 'health',
      payload: {
        domain_id: d.id,
        fqdn: d.fqdn,
        source: 'guard_history',
        result: spf ? 'Protected' : 'Partially protected',
        protocols: { dmarc: true, spf, mta_sts: true, tls_rpt: true, bimi: false },
        protocols_passing: spf ? 4 : 3,
        total_protocols: 5,
        scanned_at: new Date(t).toISOString(),
      },
      fetchedAt: t,
    });
  domains.forEach(health(true));
  t += 60_000;
  domains.forEach(health(false));
  const open = mirror.listAlerts({ accountId: account.id, open: true, limit: 100_000 }).length;

  t += 60_000;
  const first = performance.now();
  mirror.escalateDue(t);
  const firstMs = performance.now() - first;
  // Nothing is due for the next 28 minutes: each look is the sweep's cost at rest.
  const idle = await timeIt(
    () => {
      t += 5_000;
      mirror.escalateDue(t);
    },
    { iterations: 10, rounds: 5 },
  );
  t = Date.parse('2026-01-01T00:32:00Z');
  const escalating = performance.now();
  const queued = mirror.escalateDue(t);
  const escalatingMs = performance.now() - escalating;
  report(`escalation sweep (${open} open alerts, a route repeating every 4 h, escalation after 30 min)`, [
    { name: 'first look (every open alert read)', value: firstMs, unit: 'ms' },
    { name: 'a look while nothing is due, median', value: idle.perOpMs, unit: 'ms' },
    { name: 'the look that escalates them all', value: escalatingMs, unit: 'ms' },
    { name: 'escalations queued by it', value: queued, unit: 'rows' },
  ]);
  mirror.close();
}
