// The sandbox zone over real DNS: Node's resolver (c-ares) and raw TCP queries against the service's DNS port.
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import * as packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZoneDnsServer, type ZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { writeCustomerDelegation } from '../../../service/hosted/serviceDns.ts';
import { startService, stopService, type ServiceHarness } from '../../support/serviceHarness.ts';

let svc: ServiceHarness;
let dns: ZoneDnsServer;
let resolver: Resolver;

beforeAll(async () => {
  svc = await startService();
  dns = await startZoneDnsServer({ db: svc.db, port: 0, ttl: 60 });
  resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${dns.port}`]);
  // A customer zone of the sandbox (its MX keeps it in the zone), with a DMARC record of its own.
  await svc.sandbox('PUT', '/dns/dns-port.example/mx', { value: '10 mx1.dns-port.example' });
  await svc.sandbox('PUT', '/dns/dns-port.example/dmarc', { value: 'v=DMARC1; p=reject' });
});
afterAll(async () => {
  await dns.close();
  await stopService(svc);
});

/** One query over TCP, as a resolver retries a truncated answer. */
function tcpQuery(name: string, type: 'TXT' | 'CNAME'): Promise<packet.DecodedPacket> {
  return new Promise((done, fail) => {
    const sock = connect(dns.port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    sock.on('error', fail);
    sock.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        sock.end();
        done(packet.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))));
      }
    });
    sock.write(packet.streamEncode({ type: 'query', id: 7, questions: [{ type, name }] }));
  });
}

describe('the service DNS port', () => {
  it('answers a TXT query over UDP with the sandbox record', async () => {
    const answer = await resolver.resolveTxt('_dmarc.dns-port.example');
    expect(answer).toEqual([['v=DMARC1; p=reject']]);
  });

  it('answers over TCP, authoritative, with the TTL it was started with', async () => {
    const reply = await tcpQuery('_dmarc.dns-port.example', 'TXT');
    expect(reply.id).toBe(7);
    expect(reply.flag_aa).toBe(true);
    expect(reply.answers).toHaveLength(1);
    expect(reply.answers![0]).toMatchObject({ type: 'TXT', name: '_dmarc.dns-port.example', ttl: 60 });
  });

  it('answers NXDOMAIN for an absent name and NODATA for a name without TXT, with the SOA for negative caching', async () => {
    await expect(resolver.resolveTxt('_dmarc.absent.dns-port.example')).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
    await expect(resolver.resolveTxt('dns-port.example')).rejects.toMatchObject({ code: 'ENODATA' });
    const reply = await tcpQuery('_dmarc.absent.dns-port.example', 'TXT');
    expect((reply as unknown as { rcode: string }).rcode).toBe('NXDOMAIN');
    expect(reply.authorities?.[0]).toMatchObject({ type: 'SOA', name: 'dns-port.example', ttl: 60 });
  });

  it('refuses names outside the sandbox zone instead of recursing to the network', async () => {
    await expect(resolver.resolveTxt('example.org')).rejects.toMatchObject({ code: 'EREFUSED' });
  });

  it('reflects a sandbox removal and a restore on the very next query', async () => {
    await svc.sandbox('PUT', '/dns/dns-port.example/dmarc', { value: null });
    await expect(resolver.resolveTxt('_dmarc.dns-port.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await svc.sandbox('PUT', '/dns/dns-port.example/dmarc', { value: 'v=DMARC1; p=quarantine' });
    expect(await resolver.resolveTxt('_dmarc.dns-port.example')).toEqual([['v=DMARC1; p=quarantine']]);
  });

  it('answers a delegated record with the CNAME chain to the hosted record', async () => {
    const fqdn = 'delegated.example';
    writeCustomerDelegation(svc.db, { fqdn, protocol: 'dmarc', delegated: true, now: new Date() });
    const hostedName = `${fqdn}.dmarc.hosted.authwatch.example`;
    writeZoneRecords(svc.db, {
      zone: 'hosted.authwatch.example',
      name: hostedName,
      rrtype: 'TXT',
      values: ['v=DMARC1; p=none; rua=mailto:rua@reports.authwatch.example'],
      now: new Date(),
    });
    expect(await resolver.resolveCname(`_dmarc.${fqdn}`)).toEqual([hostedName]);
    expect(await resolver.resolveTxt(`_dmarc.${fqdn}`)).toEqual([
      ['v=DMARC1; p=none; rua=mailto:rua@reports.authwatch.example'],
    ]);
    const reply = await tcpQuery(`_dmarc.${fqdn}`, 'TXT');
    expect(reply.answers?.map((a) => a.type)).toEqual(['CNAME', 'TXT']);
  });

  it('sends a long answer truncated over UDP; the resolver gets it whole over TCP', async () => {
    const long = `v=spf1 ${Array.from({ length: 40 }, (_, i) => `ip4:198.51.100.${i}`).join(' ')} -all`;
    expect(long.length).toBeGreaterThan(512);
    await svc.sandbox('PUT', '/dns/dns-port.example/spf', { value: long });
    const answer = await resolver.resolveTxt('dns-port.example');
    expect(answer.map((strings) => strings.join(''))).toContain(long);
  });
});
