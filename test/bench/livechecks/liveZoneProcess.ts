/**
 * The reference service's DNS port in a process of its own for the live checks' bench (so the server's work
 * is not charged to the checks' process), holding liveZone.ts's world of N domains (argv[2]). Prints
 * `{"port": P}` once listening; stops when its stdin closes.
 */
import { openServiceDb } from '../../../service/db/openServiceDb.ts';
import { startZoneDnsServer } from '../../../service/dns/zoneDnsServer.ts';
import { writeLiveZone } from './liveZone.ts';

const db = openServiceDb(':memory:');
writeLiveZone(db, Number(process.argv[2] ?? 1000));
const server = await startZoneDnsServer({ db, port: 0, ttl: 3600 });
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().then(() => process.exit(0));
});
