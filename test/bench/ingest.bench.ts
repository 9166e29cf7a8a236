/** Report parsing throughput on the real fixtures (plain, gzip and zip containers). */
import { parseDmarcAggregate, parseTlsReport } from '../../service/ingest/index.ts';
import { listFixtures, readFixture } from '../unit/service/ingest/fixtureFiles.ts';
import { report, timeIt } from './measure.ts';
import type { Scale } from './scale.ts';

/**
 * Every valid report of one fixture folder: the team's fixtures beside the clone, or where
 * AUTHWATCH_FIXTURES says (as the ingest tests find them; a worktree elsewhere needs it set).
 */
function load(folder: 'dmarc-aggregate' | 'tls-rpt'): Uint8Array[] {
  return listFixtures(folder)
    .filter((name) => name !== 'invalid_xml.xml')
    .map((name) => readFixture(folder, name));
}

/** Parses every valid fixture repeatedly and prints reports per second (smoke: a few times). */
export async function benchIngest(scale: Scale): Promise<void> {
  const dmarc = load('dmarc-aggregate');
  const tls = load('tls-rpt');
  const smoke = scale === 'smoke';
  const d = await timeIt(() => dmarc.forEach((b) => parseDmarcAggregate(b)), {
    iterations: smoke ? 2 : 50,
    rounds: smoke ? 1 : 5,
  });
  const t = await timeIt(() => tls.forEach((b) => parseTlsReport(b)), {
    iterations: smoke ? 2 : 200,
    rounds: smoke ? 1 : 5,
  });
  report(`report parsing (${dmarc.length} DMARC aggregate and ${tls.length} TLS-RPT fixtures)`, [
    {
      name: 'DMARC aggregate reports parsed per second',
      value: dmarc.length / (d.perOpMs / 1000),
      unit: '/s',
    },
    { name: 'TLS-RPT reports parsed per second', value: tls.length / (t.perOpMs / 1000), unit: '/s' },
  ]);
}
