/**
 * The live checks' bench world in a process of its own (so the servers' work is not charged to the checks'
 * process), holding liveZone.ts's world of N domains (argv[2]): the reference service's DNS port, the
 * reference world's test CA (its root written to argv[3]) and its STARTTLS SMTP server on each shared
 * hosting address (one port for all), and an HTTPS policy host serving every domain's MTA-STS policy with
 * the world's certificates. Prints `{"port", "httpsPort", "smtpPort"}` once listening; stops when its stdin
 * closes.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { startZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { startStarttlsSmtp, type StarttlsSmtp } from '../../../service/tls/starttlsSmtp.ts';
import { TlsWorld } from '../../../service/tls/tlsWorld.ts';
import { benchPolicy, HOSTING_ADDRESSES, writeLiveZone } from './liveZone.ts';

const db = openServiceDb(':memory:');
writeLiveZone(db, Number(process.argv[2] ?? 1000));
const world = new TlsWorld();
writeFileSync(process.argv[3]!, world.ca.rootPem);
const dns = await startZoneDnsServer({ db, port: 0, ttl: 3600 });
const https = createServer({ SNICallback: world.sniCallback }, (req, res) => {
  const fqdn = /^mta-sts\.([^:]+)/.exec(req.headers.host ?? '')?.[1];
  const found = req.url === '/.well-known/mta-sts.txt' && fqdn !== undefined;
  res
    .writeHead(found ? 200 : 404, { 'content-type': 'text/plain' })
    .end(fqdn && found ? benchPolicy(fqdn) : 'not found\n');
});
await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
const smtp: StarttlsSmtp[] = [await startStarttlsSmtp({ world, port: 0, host: HOSTING_ADDRESSES[0] })];
for (const host of HOSTING_ADDRESSES.slice(1))
  smtp.push(await startStarttlsSmtp({ world, port: smtp[0]!.port, host }));
process.stdout.write(
  `${JSON.stringify({ port: dns.port, httpsPort: (https.address() as AddressInfo).port, smtpPort: smtp[0]!.port })}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => {
  https.closeAllConnections();
  void Promise.all([dns.close(), ...smtp.map((s) => s.close()), new Promise((r) => https.close(r))]).then(
    () => process.exit(0),
  );
});
