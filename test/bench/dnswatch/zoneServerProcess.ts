/**
 * The reference service's DNS port in a process of its own, for the query-rate bench (so the server's work is
 * not charged to the watch's process): a sandbox zone where each of N domains (argv[2]) publishes SPF and
 * DMARC, served on 127.0.0.1. Prints `{"port": P}` once listening, then `{"queries": Q, "at": T}` (answered
 * so far, and when) every second; stops when its stdin closes.
 */
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { writeZoneRecords } from '../../../service/dns/sandboxZone.ts';
import { startZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { DMARC, SPF, fqdnOf } from './memoryZone.ts';

const domains = Number(process.argv[2] ?? 5000);
const db = openServiceDb(':memory:');
const now = new Date();
for (let i = 0; i < domains; i++) {
  const zone = fqdnOf(i);
  writeZoneRecords(db, { zone, name: zone, rrtype: 'TXT', values: [SPF], now });
  writeZoneRecords(db, { zone, name: `_dmarc.${zone}`, rrtype: 'TXT', values: [DMARC], now });
}
const server = await startZoneDnsServer({ db, port: 0, ttl: 60 });
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
// With the server's own time: a loaded machine fires the timer late, and a late "second" is not a second.
const timer = setInterval(
  () => process.stdout.write(`${JSON.stringify({ queries: server.queries(), at: Date.now() })}\n`),
  1000,
);
process.stdin.resume();
process.stdin.on('end', () => {
  clearInterval(timer);
  void server.close().then(() => {
    db.close();
    process.exit(0);
  });
});
