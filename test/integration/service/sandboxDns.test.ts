// The DNS layer: the sandbox zone as a resolver, and the composite that keeps registered domains off the
// network.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DnsRecordType, DnsResolve } from '../../../shared/email-auth/dns.ts';
import { DnsError } from '../../../shared/email-auth/dns.ts';
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import type { ServiceDb } from '../../../service/db/openServiceDb.ts';
import { createSandboxZoneResolver, writeZoneRecords, zoneOwns } from '../../../service/dns/sandboxZone.ts';
import { createCompositeResolver } from '../../../service/dns/compositeResolver.ts';
import { createAccount } from '../../../service/sandbox/accounts.ts';

let db: ServiceDb;
const now = new Date('2026-06-15T12:00:00Z');

beforeEach(() => {
  db = openServiceDb(':memory:');
});
afterEach(() => db.close());

function put(zone: string, name: string, rrtype: DnsRecordType, values: string[]): void {
  writeZoneRecords(db, { zone, name, rrtype, values, now });
}

describe('sandbox zone', () => {
  it('answers TXT as one record per value, splitting long values into 255-character strings', async () => {
    const long = `v=spf1 ${'ip4:192.0.2.1 '.repeat(30)}-all`;
    put('example.com', 'example.com', 'TXT', ['v=spf1 -all', long]);
    const resolve = createSandboxZoneResolver(db);
    const answer = await resolve('EXAMPLE.com.', 'TXT');
    expect(answer[0]).toEqual(['v=spf1 -all']);
    expect(answer[1]!.length).toBe(Math.ceil(long.length / 255));
    expect(answer[1]!.every((s) => s.length <= 255)).toBe(true);
    expect(answer[1]!.join('')).toBe(long);
  });

  it('answers ENODATA for existing names without that type and ENOTFOUND for unknown names', async () => {
    put('example.com', '_dmarc.example.com', 'TXT', ['v=DMARC1; p=none']);
    const resolve = createSandboxZoneResolver(db);
    await expect(resolve('_dmarc.example.com', 'MX')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolve('example.com', 'TXT')).rejects.toMatchObject({ code: 'ENODATA' }); // zone apex
    await expect(resolve('nothing.example.com', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolve('elsewhere.test', 'TXT')).rejects.toBeInstanceOf(DnsError);
  });

  it('treats a registered domain as existing even before it has records', async () => {
    const { teamId } = createAccount(db, {
      name: 'T',
      plan: 'suite',
      apiAccess: true,
      ownerName: 'O',
      ownerEmail: 'o@t.example',
      now,
    });
    db.prepare('INSERT INTO domains (team_id, fqdn, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
      teamId,
      'registered.example',
      now.toISOString(),
      now.toISOString(),
    );
    const resolve = createSandboxZoneResolver(db);
    await expect(resolve('registered.example', 'TXT')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolve('_dmarc.registered.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(zoneOwns(db, '_dmarc.registered.example')).toBe(true);
    expect(zoneOwns(db, 'notregistered.example')).toBe(false);
    expect(zoneOwns(db, 'xregistered.example')).toBe(false);
  });
});

describe('composite resolver', () => {
  it('asks the zone for names it owns and the system resolver for the rest', async () => {
    put('owned.example', '_dmarc.owned.example', 'TXT', ['v=DMARC1; p=reject']);
    const asked: string[] = [];
    const fallback = (async (name: string, rrtype: DnsRecordType) => {
      asked.push(`${name} ${rrtype}`);
      return [['from the network']];
    }) as DnsResolve;
    const resolve = createCompositeResolver(createSandboxZoneResolver(db), fallback, (n) => zoneOwns(db, n));
    expect(await resolve('_dmarc.owned.example', 'TXT')).toEqual([['v=DMARC1; p=reject']]);
    await expect(resolve('_mta-sts.owned.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolve('owned.example', 'MX')).rejects.toMatchObject({ code: 'ENODATA' });
    expect(asked).toEqual([]);
    expect(await resolve('google.com', 'TXT')).toEqual([['from the network']]);
    expect(asked).toEqual(['google.com TXT']);
  });
});
