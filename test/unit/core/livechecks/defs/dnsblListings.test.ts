import { describe, expect, it } from 'vitest';
import { createStaticResolver, type StaticZoneEntry } from '../../../../../shared/email-auth/dns.ts';
import dnsblListings from '../../../../../main/core/livechecks/defs/dnsblListings.ts';
import { mirrorWithDomain } from '../../mirror/payloads.ts';
import { probeAndWrite, zoneLookup } from '../probeHarness.ts';

const BL = 'bl.example.net';

/** example.com with one MX host at 192.0.2.25, and the DNSBL zone's entries. */
function world(entries: Record<string, StaticZoneEntry> = {}) {
  return zoneLookup(
    createStaticResolver({
      'example.com': { MX: [{ priority: 10, exchange: 'mx1.example.com' }] },
      'mx1.example.com': { A: ['192.0.2.25'] },
      ...entries,
    }),
  );
}
const listed = (code = '127.0.0.2', reason = 'Spam trap hits') => ({
  '25.2.0.192.bl.example.net': { A: [code], TXT: [reason] },
});

describe('dnsbl_listings (live)', () => {
  it('checks nothing until the user chooses zones (none by default)', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const { outcome } = await probeAndWrite(dnsblListings, { mirror, accountId, lookup: world(listed()) });
    expect(outcome).toMatchObject({
      status: 'not_applicable',
      words: expect.stringContaining('no blocklist zones'),
    });
  });

  it('a listed MX address raises a warning with the zone’s TXT reason, and delisting ends it', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const settings = { zones: [BL] };
    const first = await probeAndWrite(dnsblListings, {
      mirror,
      accountId,
      settings,
      lookup: world(listed()),
    });
    expect(first.written.alerts).toMatchObject([
      {
        rule: 'dnsbl_listed',
        severity: 'warning',
        title: '192.0.2.25 (MX mx1.example.com) of example.com is listed on bl.example.net',
      },
    ]);
    expect(first.written.alerts[0]!.body).toContain('Spam trap hits');
    const again = await probeAndWrite(dnsblListings, {
      mirror,
      accountId,
      settings,
      lookup: world(listed()),
    });
    expect(again.written.alerts).toEqual([]);
    await probeAndWrite(dnsblListings, { mirror, accountId, settings, lookup: world() });
    expect(mirror.listAlerts({ accountId, open: true })).toEqual([]);
  });

  it("Spamhaus's 'public resolver refused' answer is an error in words, never a listing", async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const { outcome, written } = await probeAndWrite(dnsblListings, {
      mirror,
      accountId,
      settings: { zones: ['zen.spamhaus.org'] },
      lookup: world({ '25.2.0.192.zen.spamhaus.org': { A: ['127.255.255.254'] } }),
    });
    expect(written.alerts).toEqual([]);
    if (outcome.status !== 'checked') throw new Error(outcome.status);
    expect(dnsblListings.shown.problems(outcome.result)).toEqual([
      expect.stringContaining('refuses queries through public or open resolvers'),
    ]);
  });

  it('an error answer keeps an open listing open (it is not a delisting), and a resolver failure says nothing', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const settings = { zones: [BL] };
    await probeAndWrite(dnsblListings, { mirror, accountId, settings, lookup: world(listed()) });
    await probeAndWrite(dnsblListings, {
      mirror,
      accountId,
      settings,
      lookup: world(listed('198.51.100.9')),
    });
    expect(mirror.listAlerts({ accountId, open: true })).toHaveLength(1);
    const failing = await probeAndWrite(dnsblListings, {
      mirror,
      accountId,
      settings,
      lookup: zoneLookup(createStaticResolver({}), new Set(['example.com'])),
    });
    expect(failing.outcome.status).toBe('unknown');
    expect(mirror.listAlerts({ accountId, open: true })).toHaveLength(1);
  });
});
