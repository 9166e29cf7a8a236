import { describe, expect, it } from 'vitest';
import answers from '../../../fixtures/answers/dnsCurrent.json' with { type: 'json' };
import { decodeSignal } from '../../../../main/core/signals/decode.ts';
import { DOMAIN_ID, FQDN, mirrorWithDomain, write } from '../mirror/payloads.ts';

/** The service's current records of the domain (recorded: acme.example) with SPF taking `lookups`. */
function current(lookups: number | null) {
  const recorded = answers['acme.example'];
  const spf = { ...recorded.protocols.spf, lookup_count: lookups };
  const { spf: _spf, ...others } = recorded.protocols;
  const decoded = decodeSignal('dns_current', {
    ...recorded,
    domain_id: DOMAIN_ID,
    fqdn: FQDN,
    protocols: lookups === null ? others : { ...others, spf },
  });
  if (!decoded.ok) throw new Error(decoded.error.message);
  return decoded.value;
}

function setup() {
  const { mirror, accountId } = mirrorWithDomain();
  let day = 1;
  const read = (lookups: number | null) =>
    write(
      mirror,
      accountId,
      'dns_current',
      current(lookups),
      `2026-11-${String(day++).padStart(2, '0')}T06:00:00Z`,
    );
  return { mirror, accountId, read };
}

describe('spf_service_lookups_near_limit (on the service’s current records, read for every domain)', () => {
  it('warns when SPF takes 9 of the 10 lookups, once, and ends when it takes fewer', () => {
    const { read } = setup();
    expect(read(7).alerts).toEqual([]);
    const near = read(9);
    expect(near.alerts).toHaveLength(1);
    expect(near.alerts[0]).toMatchObject({
      rule: 'spf_service_lookups_near_limit',
      severity: 'warning',
      title: 'SPF of example.com takes 9 of 10 DNS lookups',
      details: { lookups: 9, limit: 10 },
    });
    // At the limit the next week: the same episode, not a second alert.
    expect(read(10).alerts).toEqual([]);
    expect(read(8).resolved).toHaveLength(1);
  });

  it('tells a domain already near the limit at its first read, and says nothing without an SPF record', () => {
    const { read } = setup();
    expect(read(10).alerts).toHaveLength(1);
    const none = setup();
    expect(none.read(null).alerts).toEqual([]);
    expect(none.read(8).alerts).toEqual([]);
  });
});
