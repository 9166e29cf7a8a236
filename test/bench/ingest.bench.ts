/** Report parsing throughput on the real fixtures (plain, gzip and zip containers). */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDmarcAggregate, parseTlsReport } from '../../service/ingest/index.ts';
import { report, timeIt } from './measure.ts';

const fixtures = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/fixtures');

function load(folder: string): Uint8Array[] {
  const dir = join(fixtures, folder);
  return readdirSync(dir)
    .filter((n) => n !== 'README.md' && n !== 'invalid_xml.xml')
    .map((n) => new Uint8Array(readFileSync(join(dir, n))));
}

/** Parses every valid fixture repeatedly and prints reports per second. */
export async function benchIngest(): Promise<void> {
  const dmarc = load('dmarc-aggregate');
  const tls = load('tls-rpt');
  const d = await timeIt(() => dmarc.forEach((b) => parseDmarcAggregate(b)), { iterations: 50 });
  const t = await timeIt(() => tls.forEach((b) => parseTlsReport(b)), { iterations: 200 });
  report(`report parsing (${dmarc.length} DMARC aggregate and ${tls.length} TLS-RPT fixtures)`, [
    {
      name: 'DMARC aggregate reports parsed per second',
      value: dmarc.length / (d.perOpMs / 1000),
      unit: '/s',
    },
    { name: 'TLS-RPT reports parsed per second', value: tls.length / (t.perOpMs / 1000), unit: '/s' },
  ]);
}
