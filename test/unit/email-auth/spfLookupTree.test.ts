import { describe, expect, it } from 'vitest';
import { createStaticResolver, type StaticZoneEntry } from '../../../shared/email-auth/dns.ts';
import {
  spfCostChanges,
  spfCostChangeWords,
  spfLookupTree,
} from '../../../shared/email-auth/spfLookupTree.ts';

const spf = (record: string): StaticZoneEntry => ({ TXT: [record] });

/** A vendor include costing `n` lookups in all: itself plus n-1 nested includes of ip4 records. */
function vendor(name: string, n: number): Record<string, StaticZoneEntry> {
  const zone: Record<string, StaticZoneEntry> = {};
  const nested = Array.from({ length: n - 1 }, (_, i) => `s${i + 1}.${name}`);
  zone[name] = spf(`v=spf1 ${nested.map((s) => `include:${s}`).join(' ')} ~all`);
  nested.forEach((s, i) => (zone[s] = spf(`v=spf1 ip4:198.51.100.${i + 1} ~all`)));
  return zone;
}

describe('spfLookupTree: counting as RFC 7208 §4.6.4 does', () => {
  it('counts include, a, mx, ptr, exists and redirect wherever they sit, and not ip4/ip6/all/exp', async () => {
    const resolve = createStaticResolver({
      'example.com': {
        ...spf(
          'v=spf1 ip4:192.0.2.1 ip6:2001:db8::1 a mx ptr exists:e.example.com include:_spf.example.net exp=x.example.com redirect=r.example.org',
        ),
        A: ['192.0.2.10'],
        MX: [{ priority: 10, exchange: 'mx.example.com' }],
      },
      'e.example.com': { A: ['127.0.0.2'] },
      '_spf.example.net': spf('v=spf1 a:host.example.net include:deep.example.net -all'),
      'host.example.net': { A: ['192.0.2.20'] },
      'deep.example.net': spf('v=spf1 ip4:192.0.2.0/24 -all'),
      'r.example.org': spf('v=spf1 mx:mail.example.org -all'),
      'mail.example.org': { MX: [{ priority: 1, exchange: 'mx.example.org' }] },
    });
    const tree = await spfLookupTree('Example.com.', resolve);
    // a, mx, ptr, exists, include (+ a, include inside) and redirect (+ mx inside) = 9.
    expect(tree.lookups).toBe(9);
    expect(tree.voids).toBe(0);
    expect(tree.status).toBe('ok');
    expect(tree.terms.map((t) => [t.term, t.lookups])).toEqual([
      ['a', 1],
      ['mx', 1],
      ['ptr', 1],
      ['exists:e.example.com', 1],
      ['include:_spf.example.net', 3],
      ['redirect=r.example.org', 2],
    ]);
    expect(tree.terms[4]!.children.map((c) => c.term)).toEqual([
      'a:host.example.net',
      'include:deep.example.net',
    ]);
    // The MX hosts' addresses are not asked: the budget does not depend on them.
    expect(resolve.queries.some((q) => q.name === 'mx.example.com')).toBe(false);
  });

  it('11 lookups is a permerror, 10 is not', async () => {
    const ten = await spfLookupTree(
      'example.com',
      createStaticResolver({
        'example.com': spf('v=spf1 include:_spf.vendor.example -all'),
        ...vendor('_spf.vendor.example', 10),
      }),
    );
    expect([ten.lookups, ten.status]).toEqual([10, 'ok']);
    const eleven = await spfLookupTree(
      'example.com',
      createStaticResolver({
        'example.com': spf('v=spf1 include:_spf.vendor.example -all'),
        ...vendor('_spf.vendor.example', 11),
      }),
    );
    expect([eleven.lookups, eleven.status]).toEqual([11, 'permerror']);
    expect(eleven.problems.join()).toContain('11 DNS lookups, over the limit of 10');
  });

  it('counts void lookups (NXDOMAIN and NODATA) and makes a third one a permerror', async () => {
    const zone = {
      'example.com': spf('v=spf1 a:gone1.example.com a:gone2.example.com -all'),
      'gone2.example.com': { AAAA: ['2001:db8::1'] },
    };
    const two = await spfLookupTree('example.com', createStaticResolver(zone));
    expect([two.voids, two.status]).toEqual([2, 'ok']);
    const three = await spfLookupTree(
      'example.com',
      createStaticResolver({
        ...zone,
        'example.com': spf('v=spf1 a:gone1.example.com a:gone2.example.com include:gone3.example.com -all'),
      }),
    );
    expect(three.voids).toBe(3);
    expect(three.status).toBe('permerror');
    expect(three.terms[2]!.problem).toContain('a void lookup');
  });

  it('stops at all: later terms and a redirect beside it cost nothing', async () => {
    const tree = await spfLookupTree(
      'example.com',
      createStaticResolver({
        'example.com': { ...spf('v=spf1 a -all mx redirect=x.example.org'), A: ['192.0.2.1'] },
      }),
    );
    expect(tree.lookups).toBe(1);
  });

  it('ptr and macro terms cost their lookup without being resolved', async () => {
    const resolve = createStaticResolver({
      'example.com': spf('v=spf1 ptr exists:%{i}.bl.example.net -all'),
    });
    const tree = await spfLookupTree('example.com', resolve);
    expect([tree.lookups, tree.voids, tree.status]).toEqual([2, 0, 'ok']);
    expect(resolve.queries).toHaveLength(1);
  });

  it('an include with no SPF record, a loop, two records or more than 10 MX names are permerrors', async () => {
    const cases: Record<string, StaticZoneEntry>[] = [
      {
        'example.com': spf('v=spf1 include:nospf.example.net -all'),
        'nospf.example.net': { TXT: ['hello'] },
      },
      {
        'example.com': spf('v=spf1 include:loop.example.net -all'),
        'loop.example.net': spf('v=spf1 include:example.com -all'),
      },
      {
        'example.com': spf('v=spf1 include:two.example.net -all'),
        'two.example.net': { TXT: ['v=spf1 -all', 'v=spf1 ~all'] },
      },
      {
        'example.com': {
          ...spf('v=spf1 mx -all'),
          MX: Array.from({ length: 11 }, (_, i) => ({ priority: i, exchange: `mx${i}.example.com` })),
        },
      },
    ];
    for (const zone of cases) {
      const tree = await spfLookupTree('example.com', createStaticResolver(zone));
      expect(tree.status, JSON.stringify(zone)).toBe('permerror');
      expect(tree.problems.length).toBeGreaterThan(0);
    }
  });

  it('a domain without SPF is none, and a DNS failure is temperror, never a verdict', async () => {
    expect(
      (await spfLookupTree('example.com', createStaticResolver({ 'example.com': { TXT: ['x'] } }))).status,
    ).toBe('none');
    expect((await spfLookupTree('example.com', createStaticResolver({}))).status).toBe('none');
    const failing = await spfLookupTree(
      'example.com',
      createStaticResolver({
        'example.com': spf('v=spf1 include:a.example.net include:b.example.net include:c.example.net -all'),
        'b.example.net': { error: 'ESERVFAIL' },
      }),
    );
    expect(failing.status).toBe('temperror');
    expect(failing.problems[0]).toContain('ESERVFAIL');
  });

  it('cuts a hostile tree that fans out forever', async () => {
    const zone: Record<string, StaticZoneEntry> = {};
    for (let i = 0; i < 100; i++)
      zone[`n${i}.example.com`] = spf(`v=spf1 include:n${i + 1}.example.com a:n${i}.example.com -all`);
    zone['example.com'] = spf('v=spf1 include:n0.example.com -all');
    const tree = await spfLookupTree('example.com', createStaticResolver(zone));
    expect(tree.status).toBe('permerror');
    expect(tree.problems.join()).toContain('not followed further');
  });
});

describe('spfCostChanges: which include changed, in words', () => {
  it('names the include whose cost changed, and added and removed terms', async () => {
    const record = (r: string, n: number) =>
      createStaticResolver({
        'example.com': { ...spf(r), A: ['192.0.2.1'] },
        ...vendor('_spf.vendor.example', n),
        ...vendor('_spf.other.example', 2),
      });
    const before = await spfLookupTree(
      'example.com',
      record('v=spf1 a include:_spf.vendor.example include:_spf.other.example -all', 3),
    );
    const after = await spfLookupTree(
      'example.com',
      record('v=spf1 a include:_spf.vendor.example mx -all', 6),
    );
    expect(spfCostChanges(before, after).map(spfCostChangeWords)).toEqual([
      'include:_spf.vendor.example now costs 6 lookups, was 3',
      'mx was added and costs 1 lookup',
      'include:_spf.other.example was removed (it cost 2 lookups)',
    ]);
    expect(spfCostChanges(after, after)).toEqual([]);
  });
});
