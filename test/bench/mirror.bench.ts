/** The mirror at portfolio scale: 500 domains' health written and the overview read back. */
import { openMirror } from '../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../main/core/status/statusModel.ts';
import { report, rssMiB, timeIt } from './measure.ts';
import type { Scale } from './scale.ts';

/** Writes health snapshots for 500 domains (smoke: 50) and measures the overview query the dashboard runs. */
export async function benchMirror(scale: Scale): Promise<void> {
  const count = scale === 'smoke' ? 50 : 500;
  const before = rssMiB();
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
  let round = 0;
  const writeAll = () => {
    round += 1;
    t += 15 * 60_000;
    for (const d of domains) {
      const spf = (d.id + round) % 7 !== 0;
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
    }
  };
  const writes = await timeIt(writeAll, { rounds: 5 });
  const overview = await timeIt(() => mirror.overview(account.id), { iterations: 10, rounds: 5 });
  const alerts = mirror.listAlerts({ accountId: account.id }).length;
  report(`mirror (${count} domains, health signal, alert rules in the write transaction)`, [
    {
      name: 'health writes per second (one transaction each)',
      value: count / (writes.medianMs / 1000),
      unit: '/s',
    },
    { name: 'one write, median', value: writes.medianMs / count, unit: 'ms' },
    { name: 'overview() of all domains, median', value: overview.perOpMs, unit: 'ms' },
    { name: 'alerts raised over 6 rounds (rules ran)', value: alerts, unit: 'alerts' },
    { name: 'RSS growth', value: rssMiB() - before, unit: 'MiB' },
  ]);
  mirror.close();
}
