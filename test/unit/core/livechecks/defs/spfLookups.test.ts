import { describe, expect, it } from 'vitest';
import { createStaticResolver, type StaticZoneEntry } from '../../../../../shared/email-auth/dns.ts';
import spfLookups, { disagreement } from '../../../../../main/core/livechecks/defs/spfLookups.ts';
import { LIVE_CHECKS } from '../../../../../main/core/livechecks/registry.ts';
import { mirrorWithDomain } from '../../mirror/payloads.ts';
import { probeAndWrite, zoneLookup } from '../probeHarness.ts';

/** example.com: `mx include:_spf.vendor.example include:_spf.other.example` with the vendor costing `vendor`. */
function world(vendor: number, extra: Record<string, StaticZoneEntry> = {}) {
  const zone: Record<string, StaticZoneEntry> = {
    'example.com': {
      TXT: ['v=spf1 mx include:_spf.vendor.example include:_spf.other.example ~all'],
      MX: [{ priority: 10, exchange: 'mx1.example.com' }],
    },
    '_spf.other.example': { TXT: ['v=spf1 include:s1._spf.other.example ~all'] },
    's1._spf.other.example': { TXT: ['v=spf1 ip4:192.0.2.0/24 ~all'] },
    ...extra,
  };
  const nested = Array.from({ length: vendor - 1 }, (_, i) => `s${i + 1}._spf.vendor.example`);
  zone['_spf.vendor.example'] = { TXT: [`v=spf1 ${nested.map((n) => `include:${n}`).join(' ')} ~all`] };
  for (const n of nested) zone[n] = { TXT: ['v=spf1 ip4:198.51.100.1 ~all'] };
  return zoneLookup(createStaticResolver(zone));
}

describe('spf_lookups (live)', () => {
  it('is registered from its file, with its rules', () => {
    expect(LIVE_CHECKS.spf_lookups).toBe(spfLookups);
    expect(Object.keys(spfLookups.rules ?? {})).toEqual(['spfLookupBudget']);
  });

  it('warns at 9, is critical over 10 naming the include that grew, and resolves when back under', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const run = (vendor: number, at: string) =>
      probeAndWrite(spfLookups, { mirror, accountId, lookup: world(vendor), at });
    // mx (1) + vendor (3) + other (2) = 6: nothing to say.
    expect((await run(3, '2026-11-01T00:00:00Z')).written.alerts).toEqual([]);
    const near = (await run(6, '2026-11-01T01:00:00Z')).written.alerts;
    expect(near).toMatchObject([
      {
        rule: 'spf_lookups_near_limit',
        severity: 'warning',
        title:
          'SPF of example.com uses 9 of its 10 DNS lookups — include:_spf.vendor.example now costs 6 lookups, was 3',
      },
    ]);
    const over = await run(8, '2026-11-01T02:00:00Z');
    expect(over.written.alerts).toMatchObject([
      {
        rule: 'spf_lookups_over_limit',
        severity: 'critical',
        title:
          'SPF of example.com needs 11 DNS lookups: receivers fail it (permerror) — include:_spf.vendor.example now costs 8 lookups, was 6',
      },
    ]);
    expect(over.written.alerts[0]!.body).toContain(
      'include:_spf.vendor.example (8), include:_spf.other.example (2)',
    );
    // Moving to "over" ended the "near" episode.
    expect(mirror.listAlerts({ accountId, open: true }).map((a) => a.rule)).toEqual([
      'spf_lookups_over_limit',
    ]);
    await run(3, '2026-11-01T03:00:00Z');
    expect(mirror.listAlerts({ accountId, open: true })).toEqual([]);
  });

  it('three void lookups are critical', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const lookup = zoneLookup(
      createStaticResolver({
        'example.com': {
          TXT: ['v=spf1 a:gone1.example.com a:gone2.example.com exists:gone3.example.com -all'],
        },
      }),
    );
    const { written } = await probeAndWrite(spfLookups, { mirror, accountId, lookup });
    expect(written.alerts).toMatchObject([
      {
        rule: 'spf_void_lookups',
        severity: 'critical',
        title: 'SPF of example.com has 3 void lookups (over 2)',
      },
    ]);
  });

  it('a resolver failure is no evidence: nothing raised, nothing resolved', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    await probeAndWrite(spfLookups, { mirror, accountId, lookup: world(8) });
    expect(mirror.listAlerts({ accountId, open: true })).toHaveLength(1);
    const failing = zoneLookup(createStaticResolver({}), new Set(['example.com']));
    const { outcome, written } = await probeAndWrite(spfLookups, { mirror, accountId, lookup: failing });
    expect(outcome.status).toBe('unknown');
    expect(written.alerts).toEqual([]);
    expect(mirror.listAlerts({ accountId, open: true })).toHaveLength(1);
  });

  it('says in words where its count and the service’s differ', () => {
    const base = {
      domain: 'example.com',
      record: 'v=spf1 -all',
      voids: 0,
      status: 'ok' as const,
      problems: [],
      terms: [],
    };
    expect(disagreement({ ...base, lookups: 11, service: { count: 8, at: '2026-11-01T06:00:00Z' } })).toBe(
      'The service counted 8 lookups (read 2026-11-01 06:00 UTC); the live count is 11, 3 more — an include grew since the service read it, or the service counts differently.',
    );
    expect(
      disagreement({ ...base, lookups: 8, service: { count: 8, at: '2026-11-01T06:00:00Z' } }),
    ).toBeNull();
    expect(disagreement({ ...base, lookups: 8, service: null })).toBeNull();
  });

  it('shows the lookup tree with each term’s cost', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const { outcome } = await probeAndWrite(spfLookups, { mirror, accountId, lookup: world(3) });
    if (outcome.status !== 'checked') throw new Error(outcome.status);
    const tree = spfLookups.shown.details!(outcome.result).find((d) => d.label === 'Lookup tree')!.text;
    expect(tree.split('\n').slice(0, 4)).toEqual([
      'mx — 1 lookup',
      'include:_spf.vendor.example — 3 lookups',
      '  include:s1._spf.vendor.example — 1 lookup',
      '  include:s2._spf.vendor.example — 1 lookup',
    ]);
  });
});
