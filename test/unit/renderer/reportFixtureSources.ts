/**
 * The real aggregate-report fixtures (shared/fixtures/dmarc-aggregate) for example.com, parsed with the
 * service's own parser and grouped by source into the interface's SendingSource rows, named as the service
 * names them without DNS (a known sender's network, else the address), as sending-services and
 * failed-sources answer them.
 */
import { parseDmarcAggregate } from '../../../service/ingest/index.ts';
import { compliancePercent, sourceStatus } from '../../../service/reports/sourceStatus.ts';
import { nameWithoutDns } from '../../../service/reports/sourceNaming.ts';
import type { DmarcAggregateRecord } from '../../../service/ingest/dmarcAggregateReport.ts';
import { listFixtures, readFixture } from '../service/ingest/fixtureFiles.ts';
import type { ImpactSource } from '../../../renderer/src/lib/impact.ts';

/** Every record of the example.com reports, and the failing total the reports themselves give. */
export const records: DmarcAggregateRecord[] = [];
export let reportedFail = 0;
for (const name of listFixtures('dmarc-aggregate')) {
  try {
    const report = parseDmarcAggregate(readFixture('dmarc-aggregate', name));
    if (report.policy_published.domain !== 'example.com') continue;
    records.push(...report.records);
    reportedFail += report.totals.dmarc_fail;
  } catch {
    // invalid_xml.xml and other refused files carry no records
  }
}

const passes = (r: DmarcAggregateRecord) => r.policy_dkim === 'pass' || r.policy_spf === 'pass';

/** The SendingSource rows of the reports; `threats` names the registered threats. */
export function reportSources(threats: ReadonlySet<string> = new Set()): ImpactSource[] {
  const byName = new Map<string, { total: number; pass: number }>();
  for (const r of records) {
    const name = nameWithoutDns(r.source_ip);
    const s = byName.get(name) ?? { total: 0, pass: 0 };
    s.total += r.count;
    if (passes(r)) s.pass += r.count;
    byName.set(name, s);
  }
  return [...byName].map(([name, s]) => {
    const compliance = compliancePercent(s.pass, s.total);
    return {
      source_name: name,
      total_count: s.total,
      dmarc: { pass: s.pass, fail: s.total - s.pass },
      compliance,
      status: sourceStatus(compliance),
      is_registered_threat: threats.has(name),
    };
  });
}
