// Whatever arrives at the ingestion endpoint, the parsers answer with a report or a ReportParseError.
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseDmarcAggregate, parseTlsReport, ReportParseError } from '../../../../service/ingest/index.ts';
import { listFixtures, readFixture } from './fixtureFiles.ts';

/**
 * Runs `parse`; passes when it returns or throws a ReportParseError raised on purpose. The entry points
 * wrap any stray library exception as a last resort ("report could not be read"); reaching that wrapper
 * means an input the parser did not anticipate, so it fails the property too.
 */
function onlyReportParseError(parse: () => unknown): void {
  try {
    parse();
  } catch (error) {
    if (!(error instanceof ReportParseError)) throw error;
    if (error.message.startsWith('report could not be read')) throw error;
  }
}

const parsers = { dmarc: parseDmarcAggregate, tls: parseTlsReport };

const dmarcFixtures = listFixtures('dmarc-aggregate').map((name) => {
  const raw = readFixture('dmarc-aggregate', name);
  return name.endsWith('.gz') ? new Uint8Array(gunzipSync(raw)) : raw;
});
const tlsFixtures = listFixtures('tls-rpt').map((name) => readFixture('tls-rpt', name));

/** A fixture with a few bytes overwritten, inserted or cut: the kind of damage mail transport does. */
function damaged(sources: Uint8Array[]) {
  return fc
    .tuple(
      fc.constantFrom(...sources),
      fc.array(
        fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'cut')),
        {
          minLength: 1,
          maxLength: 8,
        },
      ),
    )
    .map(([source, edits]) => {
      const out = [...source];
      for (const [at, value, op] of edits) {
        const i = at % (out.length + 1);
        if (op === 'set') out[i] = value;
        else if (op === 'insert') out.splice(i, 0, value);
        else out.splice(i, 1 + (value % 64));
      }
      return new Uint8Array(out);
    });
}

// Pieces real reports are made of, so random documents get deep into the parser rather than failing at byte 0.
const xmlPieces = fc.constantFrom(
  '<?xml version="1.0"?>',
  '<feedback>',
  '</feedback>',
  '<report_metadata>',
  '</report_metadata>',
  '<org_name>o</org_name>',
  '<email>a@b</email>',
  '<report_id>1</report_id>',
  '<date_range><begin>1</begin><end>2</end></date_range>',
  '<policy_published><domain>d</domain><p>none</p></policy_published>',
  '<record>',
  '</record>',
  '<row><source_ip>192.0.2.1</source_ip><count>1</count>',
  '<policy_evaluated><disposition>none</disposition><dkim>pass</dkim><spf>fail</spf></policy_evaluated></row>',
  '<identifiers><header_from>d</header_from></identifiers>',
  '<auth_results><dkim><domain>d</domain><result>pass</result></dkim></auth_results>',
  '<reason></reason>',
  '<x:schema>',
  '<!DOCTYPE feedback [<!ENTITY e "&e;&e;">]>',
  '&e;',
  '&#0;',
  '&#x110000;',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<',
  '>',
  '&',
  'text',
  '\u0000',
  '\uFEFF',
);

describe('ingest never throws anything but ReportParseError', () => {
  it.each(Object.entries(parsers))('%s: arbitrary bytes', (_name, parse) => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (input) => onlyReportParseError(() => parse(input))),
      { numRuns: 300 },
    );
  });

  it.each(Object.entries(parsers))('%s: bytes behind gzip and zip magic', (_name, parse) => {
    const magic = fc.constantFrom(
      [0x1f, 0x8b],
      [0x1f, 0x8b, 0x08, 0x00],
      [0x50, 0x4b, 0x03, 0x04],
      [0x50, 0x4b, 0x05, 0x06],
    );
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 512 }), (head, tail) =>
        onlyReportParseError(() => parse(new Uint8Array([...head, ...tail]))),
      ),
      { numRuns: 200 },
    );
  });

  it('dmarc: damaged fixtures, plain, gzipped and zipped', () => {
    const container = fc.constantFrom(
      (b: Uint8Array) => b,
      (b: Uint8Array) => new Uint8Array(gzipSync(b)),
      (b: Uint8Array) => zipSync({ 'r.xml': b }),
    );
    fc.assert(
      fc.property(damaged(dmarcFixtures), container, (input, wrap) =>
        onlyReportParseError(() => parseDmarcAggregate(wrap(input))),
      ),
      { numRuns: 300 },
    );
  });

  it('dmarc: damaged archives', () => {
    const archives = [
      readFixture(
        'dmarc-aggregate',
        listFixtures('dmarc-aggregate').find((n) => n.endsWith('.gz'))!,
      ),
      readFixture(
        'dmarc-aggregate',
        listFixtures('dmarc-aggregate').find((n) => n.endsWith('.zip'))!,
      ),
    ];
    fc.assert(
      fc.property(damaged(archives), (input) => onlyReportParseError(() => parseDmarcAggregate(input))),
      { numRuns: 300 },
    );
  });

  it('dmarc: documents assembled from report pieces', () => {
    fc.assert(
      fc.property(fc.array(xmlPieces, { maxLength: 40 }), (pieces) =>
        onlyReportParseError(() => parseDmarcAggregate(new TextEncoder().encode(pieces.join('')))),
      ),
      { numRuns: 500 },
    );
  });

  it('tls: damaged fixtures and arbitrary JSON', () => {
    fc.assert(
      fc.property(damaged(tlsFixtures), (input) => onlyReportParseError(() => parseTlsReport(input))),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) =>
        onlyReportParseError(() => parseTlsReport(new TextEncoder().encode(JSON.stringify(value) ?? ''))),
      ),
      { numRuns: 300 },
    );
  });
});

describe('DMARC totals follow the records', () => {
  const record = fc.record({
    ip: fc.oneof(fc.ipV4(), fc.ipV6()),
    count: fc.nat({ max: 1_000_000 }),
    dkim: fc.constantFrom('pass', 'fail'),
    spf: fc.constantFrom('pass', 'fail'),
  });

  it('messages is the sum of counts, and dmarc_pass the sum where DKIM or SPF passed', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 20 }), (records) => {
        const xml = `<feedback><report_metadata><org_name>o</org_name><email>a@o</email><report_id>1</report_id>
          <date_range><begin>0</begin><end>86399</end></date_range></report_metadata>
          <policy_published><domain>example.com</domain><p>none</p></policy_published>
          ${records
            .map(
              (r) => `<record><row><source_ip>${r.ip}</source_ip><count>${r.count}</count><policy_evaluated>
                <disposition>none</disposition><dkim>${r.dkim}</dkim><spf>${r.spf}</spf></policy_evaluated></row>
                <identifiers><header_from>example.com</header_from></identifiers></record>`,
            )
            .join('')}</feedback>`;
        const parsed = parseDmarcAggregate(new TextEncoder().encode(xml));
        const messages = records.reduce((sum, r) => sum + r.count, 0);
        const pass = records
          .filter((r) => r.dkim === 'pass' || r.spf === 'pass')
          .reduce((sum, r) => sum + r.count, 0);
        expect(parsed.totals).toEqual({ messages, dmarc_pass: pass, dmarc_fail: messages - pass });
        expect(parsed.records.map((r) => r.count)).toEqual(records.map((r) => r.count));
      }),
      { numRuns: 100 },
    );
  });
});
