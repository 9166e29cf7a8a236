import { describe, expect, it } from 'vitest';
import answers from '../../../../fixtures/answers/mtaSts.json' with { type: 'json' };
import { decodeSignal } from '../../../../../main/core/signals/decode.ts';
import { SIGNAL_DEFINITIONS } from '../../../../../main/core/signals/registry.ts';
import { DOMAIN_ID, mirrorWithDomain, write } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

/** A fixture answer as the poller hands it over: decoded like any read. */
function answer(name: keyof typeof answers) {
  const decoded = decodeSignal('mta_sts', answers[name]);
  if (!decoded.ok) throw new Error(`fixture ${name} does not decode`);
  return decoded.value;
}

function setup(first: keyof typeof answers) {
  const { mirror, accountId } = mirrorWithDomain();
  let day = 1;
  const read = (name: keyof typeof answers) =>
    write(mirror, accountId, 'mta_sts', answer(name), `2026-11-${String(day++).padStart(2, '0')}T06:00:00Z`);
  expect(read(first).alerts).toEqual([]);
  return { mirror, accountId, read };
}

describe('mta_sts (polled every three days) and its rule mta_sts_lowered', () => {
  decodeCases(
    'mta_sts',
    { policy: { mode: 'enforce', max_age: 604800, mx: ['mx1.example.com'], status: 'active' } },
    [{ policy: { mode: 'strict', max_age: 86400, mx: [] } }, 'policy.mode'],
  );

  it('is polled for every domain, every three days, in the context tier (never the alert-bearing reads’ budget)', () => {
    const { plan } = SIGNAL_DEFINITIONS.mta_sts;
    expect(plan).toMatchObject({ role: 'core', tier: 'context', periodSeconds: 3 * 86_400 });
  });

  it('raises a warning when the mode goes from enforce to testing, and ends when enforce is back', () => {
    const { read } = setup('enforce');
    const lowered = read('testing');
    expect(lowered.alerts).toHaveLength(1);
    expect(lowered.alerts[0]).toMatchObject({
      rule: 'mta_sts_lowered',
      severity: 'warning',
      title: 'MTA-STS of example.com lowered from enforce to testing',
    });
    // Still lowered the next day: the same episode, not a second alert.
    expect(read('testing').alerts).toEqual([]);
    expect(read('enforce').resolved).toHaveLength(1);
  });

  it('raises when MTA-STS is removed (the call answers 404), and never for a policy that was not enforced', () => {
    expect(
      setup('enforce')
        .read('notProvisioned')
        .alerts.map((a) => a.title),
    ).toEqual(['MTA-STS of example.com lowered from enforce to not set up']);
    const never = setup('testing');
    expect(never.read('notProvisioned').alerts).toEqual([]);
    expect(never.read('testing').alerts).toEqual([]);
  });

  it('shows its newest mode on the domain’s Summary (the detail’s extra signals), in words', () => {
    const { mirror, accountId, read } = setup('enforce');
    read('notProvisioned');
    expect(mirror.domainDetail(accountId, DOMAIN_ID)?.extraSignals).toEqual([
      {
        signal: 'mta_sts',
        label: 'MTA-STS policy',
        words: 'MTA-STS policy mode',
        text: 'not set up',
        fetchedAt: '2026-11-02T06:00:00.000Z',
      },
    ]);
  });
});
