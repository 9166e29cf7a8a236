import { describe, expect, it } from 'vitest';
import vmcExpiry from '../../../../../main/core/livechecks/defs/vmcExpiry.ts';
import { decodeSignal } from '../../../../../main/core/signals/decode.ts';
import { mirrorWithDomain, write } from '../../mirror/payloads.ts';
import { probeAndWrite } from '../probeHarness.ts';

const VALID_TO = '2026-12-31T00:00:00.000Z';
const daysBefore = (d: number) => new Date(Date.parse(VALID_TO) - d * 86_400_000).toISOString();
const noDns = async () => ({ kind: 'unknown' as const, reason: 'no DNS here', server: '' });

/** The weekly read of the service's VMC analysis, the certificate ending at `validTo`. */
function readVmc(
  mirror: ReturnType<typeof mirrorWithDomain>['mirror'],
  accountId: number,
  validTo: string,
  at: string,
) {
  const decoded = decodeSignal('vmc_certificate', {
    vmc: {
      domain_id: 1,
      valid: true,
      problems: [],
      certificate: { subject: 'CN=Example Inc', valid_to: validTo, chain_ok: true, problems: [] },
    },
  });
  if (!decoded.ok) throw new Error(decoded.error.message);
  write(mirror, accountId, 'vmc_certificate', decoded.value, at);
}

describe('vmc_expiry (live, daily, no request)', () => {
  it('warns 30, 14 and 3 days before valid_to from one weekly read, each once; critical when expired; ends on renewal', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    // One read, 32 days ahead: the daily check alone sees each threshold pass on its day.
    readVmc(mirror, accountId, VALID_TO, daysBefore(32));
    const day = (d: number) =>
      probeAndWrite(vmcExpiry, {
        mirror,
        accountId,
        lookup: noDns,
        at: daysBefore(d),
        now: Date.parse(daysBefore(d)),
      });
    expect((await day(31)).written.alerts).toEqual([]);
    expect((await day(30)).written.alerts).toMatchObject([
      { rule: 'vmc_expiring', severity: 'info', title: 'VMC of example.com expires in 30 days' },
    ]);
    expect((await day(20)).written.alerts).toEqual([]);
    expect((await day(14)).written.alerts).toMatchObject([{ rule: 'vmc_expiring', severity: 'warning' }]);
    expect((await day(3)).written.alerts).toMatchObject([
      { rule: 'vmc_expiring', severity: 'warning', title: 'VMC of example.com expires in 3 days' },
    ]);
    expect((await day(-1)).written.alerts).toMatchObject([
      { rule: 'vmc_expired', severity: 'critical', title: 'VMC of example.com expired 1 day ago' },
    ]);
    expect(mirror.listAlerts({ accountId, open: true }).map((a) => a.rule)).toEqual(['vmc_expired']);
    readVmc(mirror, accountId, '2027-12-31T00:00:00.000Z', daysBefore(-2));
    await day(-2);
    expect(mirror.listAlerts({ accountId, open: true })).toEqual([]);
  });

  it('a domain without a VMC read is not applicable', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    expect((await probeAndWrite(vmcExpiry, { mirror, accountId, lookup: noDns })).outcome.status).toBe(
      'not_applicable',
    );
  });
});
