/**
 * Typed raises and the one-condition-per-domain transition (main/core/alerts/transition.ts). The
 * `@ts-expect-error` lines are the type test: `npx tsc --noEmit` fails on any of them the day a mistyped alert
 * name or a wrongly shaped details object compiles again (an unused `@ts-expect-error` is itself an error).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { alertsOf, domainCondition } from '../../../../main/core/alerts/transition.ts';
import { DEFAULT_ALERT_SETTINGS, type RuleContext } from '../../../../main/core/alerts/types.ts';

const ALERTS = {
  verification_lost: {
    label: 'Verification lost',
    description: 'A verified domain is no longer verified; ends when it is again.',
    severity: 'warning',
    details: z.strictObject({ protocols: z.array(z.string()) }),
  },
} as const;

/** One reading: verified or not, and when. */
interface Reading {
  verified: boolean | null;
  at: string;
}

const domain = { id: 7, fqdn: 'acme.example' };
function ctx(open: string[] = []): RuleContext {
  return {
    accountId: 1,
    accountLabel: 'Acme',
    domain,
    at: '2026-11-01T00:00:00Z',
    openAlerts: new Map(open.map((key) => [key, {} as never])),
    settings: DEFAULT_ALERT_SETTINGS,
    latestDnsEvents: {},
  };
}

const rule = domainCondition({
  alerts: ALERTS,
  kind: 'verification_lost',
  readAt: (r: Reading) => r.at,
  judge: (r) => (r.verified === null ? null : r.verified ? 'ok' : 'bad'),
  raise: (_now, _before, d) => ({ title: `${d.fqdn} lost`, body: 'b', details: { protocols: ['spf'] } }),
});
const read = (verified: boolean | null, day: number): Reading => ({
  verified,
  at: `2026-11-0${day}T00:00:00Z`,
});
const KEY = 'verification_lost:1:acme.example';

describe('typed raises', () => {
  it('raise and resolve take only the alerts the rule declares, with their details as declared', () => {
    const { raise, resolve } = alertsOf(ALERTS).in(ctx());
    expect(raise('verification_lost', { title: 't', body: 'b', details: { protocols: [] } })).toEqual({
      type: 'raise',
      rule: 'verification_lost',
      severity: 'warning',
      dedupeKey: KEY,
      domain,
      title: 't',
      body: 'b',
      details: { protocols: [] },
    });
    expect(resolve('verification_lost')).toEqual({ type: 'resolve', dedupeKey: KEY });
    // Compiled, never run: each line below must fail to type-check.
    const _mistakes = () => [
      // @ts-expect-error -- a typo in the alert's name does not compile
      raise('verification_lst', { title: 't', body: 'b', details: { protocols: [] } }),
      // @ts-expect-error -- nor do details shaped otherwise than the alert declares
      raise('verification_lost', { title: 't', body: 'b', details: { protocol: 'spf' } }),
      // @ts-expect-error -- nor resolving an alert the rule does not raise
      resolve('verification_lst'),
    ];
  });

  it('a condition rule names one of its declared alerts and builds that alert’s details', () => {
    domainCondition({
      alerts: ALERTS,
      // @ts-expect-error -- a typo in the condition's alert
      kind: 'verification_lst',
      readAt: (r: Reading) => r.at,
      judge: () => 'bad',
      raise: () => ({ title: 't', body: 'b', details: { protocols: [] } }),
    });
    domainCondition({
      alerts: ALERTS,
      kind: 'verification_lost',
      readAt: (r: Reading) => r.at,
      judge: () => 'bad',
      // @ts-expect-error -- details of the wrong shape
      raise: () => ({ title: 't', body: 'b', details: { protocols: 'spf' } }),
    });
  });
});

describe('domainCondition: one condition per domain, one episode', () => {
  it('opens when an ok reading turns bad, once, and ends on the next ok reading', () => {
    expect(rule.run(read(true, 1), read(false, 2), ctx())).toMatchObject([
      { type: 'raise', rule: 'verification_lost', dedupeKey: KEY, title: 'acme.example lost' },
    ]);
    expect(rule.run(read(false, 2), read(false, 3), ctx([KEY]))).toEqual([]);
    expect(rule.run(read(false, 3), read(true, 4), ctx([KEY]))).toEqual([
      { type: 'resolve', dedupeKey: KEY },
    ]);
  });

  it('compares nothing within one read, takes the first read as a baseline, and a reading of nothing says nothing', () => {
    expect(rule.run(read(true, 1), read(false, 1), ctx())).toEqual([]);
    expect(rule.run(null, read(false, 1), ctx())).toEqual([]);
    expect(rule.run(read(false, 1), read(false, 2), ctx())).toEqual([]);
    expect(rule.run(read(true, 1), read(null, 2), ctx([KEY]))).toEqual([]);
  });

  it('opens on any bad reading when the condition is a limit rather than a change', () => {
    const limit = domainCondition({ ...rule, kind: 'verification_lost', opensOn: 'bad', ...spec() });
    expect(limit.run(null, read(false, 1), ctx())).toHaveLength(1);
  });
});

function spec() {
  return {
    readAt: (r: Reading) => r.at,
    judge: (r: Reading) => (r.verified ? ('ok' as const) : ('bad' as const)),
    raise: () => ({ title: 't', body: 'b', details: { protocols: [] } }),
  };
}
