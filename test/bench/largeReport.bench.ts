/**
 * Ingestion of the 2,286-record aggregate report (test/fixtures/dmarc-aggregate) end to end — parse, name the
 * 2,286 source IPs, store, refresh the dashboard — under three kinds of DNS, none of them the network: one that
 * answers "no such name" at once (the cost of everything but waiting), one whose every lookup times out after
 * 150 ms, and one that never answers (no network, no timeout). Issue 12 item 10: it took ~40 s.
 */
import { readFileSync } from 'node:fs';
import type { DnsResolve } from '../../shared/email-auth/dns.ts';
import { DnsError } from '../../shared/email-auth/dns.ts';
import { openServiceDb } from '../../service/db/openServiceDb.ts';
import type { ServiceContext } from '../../service/http/operation.ts';
import { ingestDmarcReport } from '../../service/reports/dmarcIngest.ts';
import { createAccount } from '../../service/sandbox/accounts.ts';
import { report } from './measure.ts';
import type { Figure } from './measure.ts';
import type { Scale } from './scale.ts';

const LARGE_REPORT = new Uint8Array(
  readFileSync(
    new URL('../fixtures/dmarc-aggregate/!large-example.com!1711897200!1711983600.xml', import.meta.url),
  ),
);

const DNS: Record<string, () => DnsResolve> = {
  'answers "no such name" at once': () =>
    (async (name: string, rrtype: string) => {
      throw new DnsError('ENOTFOUND', name, rrtype);
    }) as DnsResolve,
  'times out after 150 ms': () =>
    ((name: string, rrtype: string) =>
      new Promise((_, reject) =>
        setTimeout(() => reject(new DnsError('ETIMEOUT', name, rrtype)), 150),
      )) as DnsResolve,
  'never answers': () => (() => new Promise(() => {})) as unknown as DnsResolve,
};

/** One ingestion into a fresh in-memory service database; wall time and how the sources were named. */
async function ingestOnce(resolver: DnsResolve): Promise<{ seconds: number; namedByAddress: number }> {
  const db = openServiceDb(':memory:');
  const now = new Date();
  const { teamId } = createAccount(db, {
    name: 'Bench Co',
    plan: 'suite',
    apiAccess: true,
    ownerName: 'Bench Owner',
    ownerEmail: 'owner@bench.example',
    now,
  });
  db.prepare('INSERT INTO domains (team_id, fqdn, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
    teamId,
    'example.com',
    now.toISOString(),
    now.toISOString(),
  );
  const ctx: ServiceContext = {
    db,
    clock: () => now,
    resolver,
    config: { version: 'v1', rateLimitPerMinute: 60, defaultTokenExpiryDays: 90, sandboxKey: null },
  };
  const start = process.hrtime.bigint();
  await ingestDmarcReport(ctx, LARGE_REPORT);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { n } = db
    .prepare<[], { n: number }>(
      'SELECT COUNT(*) AS n FROM dmarc_report_records WHERE source_name = source_ip',
    )
    .get()!;
  db.close();
  return { seconds, namedByAddress: n };
}

/** Prints the wall time of one ingestion of the large report per kind of DNS (after one warm-up run but in smoke). */
export async function benchLargeReport(scale: Scale): Promise<void> {
  if (scale !== 'smoke') await ingestOnce(DNS['answers "no such name" at once']!());
  const figures: Figure[] = [];
  for (const [kind, make] of Object.entries(DNS)) {
    const { seconds, namedByAddress } = await ingestOnce(make());
    figures.push({ name: `ingest, DNS ${kind}`, value: seconds, unit: 's' });
    figures.push({ name: `  sources named by address (of 2286)`, value: namedByAddress, unit: '' });
  }
  report('ingestion of the 2,286-record aggregate report (one upload, fresh database)', figures);
}
