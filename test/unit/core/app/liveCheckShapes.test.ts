/**
 * The Checks tab's SPF tree and blocklist table through the facade: the tree keeps each include's cost with
 * its nested terms under it; the answers come listings first, each with the zone's code and TXT reason.
 */
import { describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../../main/core/app.ts';
import { DOMAIN_ID, mirrorWithDomain } from '../mirror/payloads.ts';

const leaf = (term: string) => ({ term, in: 'vendor.example', lookups: 1, voids: 0, children: [] });

describe('the Checks tab’s tree and blocklist answers', () => {
  it('draws SPF as a tree with counts and the blocklist answers listings first', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const write = (check: string, result: unknown) =>
      mirror.writeLiveCheck({
        check,
        accountId,
        domainId: DOMAIN_ID,
        dnsSeen: null,
        status: 'ok',
        words: 'x',
        result,
      });
    write('spf_lookups', {
      domain: 'example.com',
      record: 'v=spf1 include:_spf.vendor.example mx -all',
      lookups: 4,
      voids: 0,
      status: 'ok',
      problems: [],
      terms: [
        {
          term: 'include:_spf.vendor.example',
          in: 'example.com',
          lookups: 3,
          voids: 0,
          children: [leaf('include:a.vendor.example'), leaf('include:b.vendor.example')],
        },
        { term: 'mx', in: 'example.com', lookups: 1, voids: 0, children: [] },
      ],
      service: null,
    });
    write('dnsbl_listings', {
      ips: 2,
      answers: [
        { ip: '192.0.2.26', source: 'MX mx2.example.com', zone: 'bl.example.net', kind: 'clear' },
        {
          ip: '192.0.2.25',
          source: 'MX mx1.example.com',
          zone: 'bl.example.net',
          kind: 'listed',
          codes: ['127.0.0.2'],
          reason: 'spam trap hits',
        },
        {
          ip: '192.0.2.26',
          source: 'MX mx2.example.com',
          zone: 'zen.spamhaus.org',
          kind: 'error',
          why: 'public resolver refused',
        },
      ],
    });
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore() });
    const view = await app.domainLiveChecks({ accountId, domainId: DOMAIN_ID });
    const spf = view.checks.find((c) => c.check === 'spf_lookups')!;
    expect(spf.spfTree).toEqual([
      {
        term: 'include:_spf.vendor.example',
        lookups: 3,
        voids: 0,
        children: [
          { term: 'include:a.vendor.example', lookups: 1, voids: 0, children: [] },
          { term: 'include:b.vendor.example', lookups: 1, voids: 0, children: [] },
        ],
      },
      { term: 'mx', lookups: 1, voids: 0, children: [] },
    ]);
    const dnsbl = view.checks.find((c) => c.check === 'dnsbl_listings')!;
    expect(dnsbl.blocklist?.map((a) => [a.ip, a.zone, a.kind, a.codes, a.reason])).toEqual([
      ['192.0.2.25', 'bl.example.net', 'listed', ['127.0.0.2'], 'spam trap hits'],
      ['192.0.2.26', 'zen.spamhaus.org', 'error', [], 'public resolver refused'],
      ['192.0.2.26', 'bl.example.net', 'clear', [], null],
    ]);
    expect(view.checks.find((c) => c.check === 'mta_sts_live')?.spfTree).toBeUndefined();
  });
});
