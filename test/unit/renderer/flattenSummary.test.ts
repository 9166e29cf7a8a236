/**
 * The SPF flatten preview's answer, read for the form: lookups against 10 and void lookups against 2, over
 * the limit flagged, from the service's own flatten of a real record tree.
 */
import { describe, expect, it } from 'vitest';
import { createStaticResolver } from '../../../shared/email-auth/dns.ts';
import { flattenSpf } from '../../../shared/email-auth/spfFlatten.ts';
import { flattenSummary } from '../../../renderer/src/lib/flattenSummary.ts';

/** The service's answer to POST spf/flatten for a result (service/operations/hostedSpf.ts). */
function answer(result: Awaited<ReturnType<typeof flattenSpf>>) {
  return {
    domain_id: 1,
    source: 'dns',
    record: result.record,
    flattened_record: result.flattened_record,
    ipv4: result.ipv4,
    ipv6: result.ipv6,
    lookup_count: result.lookup_count,
    lookup_limit: result.lookup_limit,
    void_lookup_count: result.void_lookup_count,
    void_lookup_limit: result.void_lookup_limit,
    within_limit: result.within_limit,
    status: result.status,
    errors: result.errors.map((e) => `${e.domain}: ${e.message}`),
    warnings: result.warnings.map((w) => `${w.domain}: ${w.message}`),
  };
}

describe('flatten summary', () => {
  it('counts the lookups of a record within the limits', async () => {
    const resolve = createStaticResolver({
      'example.com': { TXT: [['v=spf1 include:_spf.esp.example ip4:192.0.2.1 ~all']] },
      '_spf.esp.example': { TXT: [['v=spf1 ip4:198.51.100.0/24 -all']] },
    });
    const s = flattenSummary(answer(await flattenSpf('example.com', resolve)))!;
    expect(s.lookups).toEqual({ count: 1, limit: 10, over: false });
    expect(s.voids).toEqual({ count: 0, limit: 2, over: false });
    expect(s.withinLimit).toBe(true);
    expect(s.ipv4).toEqual(['198.51.100.0/24', '192.0.2.1']);
  });

  it('flags more than 10 lookups and more than 2 void lookups', async () => {
    const zone: Record<string, { TXT: string[][] }> = {
      'example.com': {
        TXT: [[`v=spf1 ${Array.from({ length: 12 }, (_, i) => `include:s${i}.esp.example`).join(' ')} ~all`]],
      },
    };
    for (let i = 0; i < 12; i++) zone[`s${i}.esp.example`] = { TXT: [[`v=spf1 ip4:192.0.2.${i} -all`]] };
    const over = flattenSummary(answer(await flattenSpf('example.com', createStaticResolver(zone))))!;
    expect(over.lookups.over).toBe(true);
    expect(over.lookups.count).toBeGreaterThan(10);
    expect(over.withinLimit).toBe(false);
    const voids = flattenSummary({ lookup_count: 3, void_lookup_count: 3, void_lookup_limit: 2 })!;
    expect(voids.voids).toEqual({ count: 3, limit: 2, over: true });
    expect(voids.withinLimit).toBe(false);
    expect(flattenSummary({ deleted: true })).toBeNull();
  });
});
