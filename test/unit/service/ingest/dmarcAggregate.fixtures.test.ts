// Every DMARC aggregate fixture, with what the file itself says written out by hand from reading it
// (`cat`, `zcat`, `unzip -p`). Dates are the files' unix seconds converted with `date -u -d @<seconds>`.
import { describe, expect, it } from 'vitest';
import {
  parseDmarcAggregate,
  type DmarcAggregateReport,
  type DmarcAggregateRecord,
} from '../../../../service/ingest/index.ts';
import { catchReportParseError } from './catchReportParseError.ts';
import { listFixtures, readFixture } from './fixtureFiles.ts';

interface FixtureExpectation {
  report: Omit<DmarcAggregateReport, 'warnings'>;
  /** Messages per source IP, summed over records. */
  bySourceIp: Record<string, number>;
  /** Substrings of the warnings the parser must raise, one per warning, in order. */
  warnings: string[];
}

const noReasons: DmarcAggregateRecord['reasons'] = [];

const EXPECTED: Record<string, FixtureExpectation> = {
  // org_name is an empty element; the reporter is named by its email's domain.
  '!example.com!1538204542!1538463818.xml': {
    report: {
      org_name: 'accurateplastics.com',
      email: 'administrator@accurateplastics.com',
      report_id: 'example.com:1538463741',
      date_range: { begin: '2018-10-01T17:07:12.000Z', end: '2018-10-01T17:07:12.000Z' },
      errors: [],
      policy_published: { domain: 'example.com', adkim: 'r', aspf: 'r', p: 'none', sp: 'reject', pct: 100 },
      records: [
        {
          source_ip: '12.20.127.122',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          dkim_results: [],
          spf_results: [{ domain: '', result: 'none' }],
        },
      ],
      totals: { messages: 1, dmarc_pass: 0, dmarc_fail: 1 },
    },
    bySourceIp: { '12.20.127.122': 1 },
    warnings: ['org_name is empty'],
  },
  'addisonfoods.com!example.com!1536105600!1536191999.xml': {
    report: {
      version: '1.0',
      org_name: 'addisonfoods.com',
      email: 'postmaster@addisonfoods.com',
      report_id: '3ceb5548498640beaeb47327e202b0b9',
      date_range: { begin: '2018-09-05T00:00:00.000Z', end: '2018-09-05T23:59:59.000Z' },
      errors: [],
      policy_published: {
        domain: 'example.com',
        adkim: 'r',
        aspf: 'r',
        p: 'none',
        sp: 'none',
        pct: 100,
        fo: '0',
      },
      records: [
        {
          source_ip: '109.203.100.17',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          envelope_from: 'example.com',
          dkim_results: [{ domain: 'toptierhighticket.club', selector: 'default', result: 'pass' }],
          spf_results: [],
        },
      ],
      totals: { messages: 1, dmarc_pass: 0, dmarc_fail: 1 },
    },
    bySourceIp: { '109.203.100.17': 1 },
    warnings: [],
  },
  // <reason><type></type><comment></comment></reason> carries nothing and is skipped.
  'empty_reason.xml': {
    report: {
      version: '1.0',
      org_name: 'example.org',
      email: 'noreply-dmarc-support@example.org',
      extra_contact_info: 'https://support.example.org/dmarc',
      report_id: '20240125141224705995',
      date_range: { begin: '2024-01-25T05:12:24.000Z', end: '2024-01-25T12:28:53.000Z' },
      errors: [],
      policy_published: {
        domain: 'example.com',
        adkim: 'r',
        aspf: 'r',
        p: 'quarantine',
        sp: 'quarantine',
        pct: 100,
        fo: '1',
      },
      records: [
        {
          source_ip: '198.51.100.123',
          count: 2,
          disposition: 'none',
          policy_dkim: 'pass',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          envelope_from: 'example.edu',
          envelope_to: 'example.net',
          dkim_results: [
            { domain: 'example.com', selector: 'example', result: 'pass', human_result: '2048-bit key' },
          ],
          spf_results: [{ domain: 'example.edu', scope: 'mfrom', result: 'pass' }],
        },
      ],
      totals: { messages: 2, dmarc_pass: 2, dmarc_fail: 0 },
    },
    bySourceIp: { '198.51.100.123': 2 },
    warnings: ['empty feedback/record[0]/row/policy_evaluated/reason[0]'],
  },
  // Zipped; CRLF line endings; policy_published has only domain and p, so RFC 7489 defaults fill the rest.
  'estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip': {
    report: {
      org_name: 'XYZ Corporation',
      email: 'admin@estadocuenta1.infonacot.gob.mx',
      extra_contact_info: 'http://estadocuenta1.infonacot.gob.mx',
      report_id: '2940',
      date_range: { begin: '2018-09-13T15:41:42.000Z', end: '2018-09-14T15:41:42.000Z' },
      errors: [],
      policy_published: { domain: 'example.com', adkim: 'r', aspf: 'r', p: 'none', sp: 'none', pct: 100 },
      records: [
        {
          source_ip: '148.243.137.254',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          envelope_to: 'estadocuenta1.infonacot.gob.mx',
          dkim_results: [],
          spf_results: [],
        },
      ],
      totals: { messages: 1, dmarc_pass: 0, dmarc_fail: 1 },
    },
    bySourceIp: { '148.243.137.254': 1 },
    warnings: ['omits adkim=r, aspf=r, sp=none, pct=100'],
  },
  // Has a stray "11" after </sp>.
  'example.net!example.com!1529366400!1529452799.xml': {
    report: {
      version: '1.0',
      org_name: 'example.net',
      email: 'postmaster@example.net',
      report_id: 'b043f0e264cf4ea995e93765242f6dfb',
      date_range: { begin: '2018-06-19T00:00:00.000Z', end: '2018-06-19T23:59:59.000Z' },
      errors: [],
      policy_published: {
        domain: 'example.com',
        adkim: 'r',
        aspf: 'r',
        p: 'none',
        sp: 'none',
        pct: 100,
        fo: '0',
      },
      records: [
        {
          source_ip: '199.230.200.36',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          envelope_from: 'example.com',
          dkim_results: [],
          spf_results: [],
        },
      ],
      totals: { messages: 1, dmarc_pass: 0, dmarc_fail: 1 },
    },
    bySourceIp: { '199.230.200.36': 1 },
    warnings: ['stray text "11" inside feedback/policy_published'],
  },
  // Gzipped; no adkim/aspf in policy_published.
  'fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz': {
    report: {
      version: '1.0',
      org_name: 'FastMail Pty Ltd',
      email: 'reports@fastmaildmarc.com',
      extra_contact_info: 'https://fastmail.com/',
      report_id: '102675056',
      date_range: { begin: '2018-01-16T00:00:00.000Z', end: '2018-01-16T23:59:59.000Z' },
      errors: [],
      policy_published: {
        domain: 'indemed.com',
        adkim: 'r',
        aspf: 'r',
        p: 'none',
        sp: 'none',
        pct: 100,
        fo: '0',
      },
      records: [
        {
          source_ip: '104.195.80.20',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          envelope_from: 'example.com',
          envelope_to: 'fastmail.fm',
          dkim_results: [],
          spf_results: [{ domain: 'example.com', scope: 'mfrom', result: 'softfail' }],
        },
      ],
      totals: { messages: 1, dmarc_pass: 0, dmarc_fail: 1 },
    },
    bySourceIp: { '104.195.80.20': 1 },
    warnings: ['omits adkim=r, aspf=r'],
  },
  // <feedback> sits inside an unclosed <xs:schema ...> start tag.
  'ikea.com!example.de!1538690400!1538776800.xml': {
    report: {
      org_name: 'ikea.com',
      email: 'double-bounce@ikea.com',
      report_id: 'aggr_report_2018_10_05_5bc7e9b4f3e8a',
      date_range: { begin: '2018-10-04T22:00:00.000Z', end: '2018-10-05T22:00:00.000Z' },
      errors: [],
      policy_published: {
        domain: 'example.de',
        adkim: 'r',
        aspf: 'r',
        p: 'none',
        sp: 'none',
        pct: 100,
        fo: '0',
      },
      records: [
        {
          source_ip: '234.234.234.234',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.de',
          envelope_from: 'example.de',
          dkim_results: [{ domain: 'example.de', result: 'pass' }],
          spf_results: [{ domain: 'mailrelay.com', scope: 'helo', result: 'none' }],
        },
      ],
      totals: { messages: 1, dmarc_pass: 0, dmarc_fail: 1 },
    },
    bySourceIp: { '234.234.234.234': 1 },
    warnings: ['stray <xs:schema> tags'],
  },
  // Draft schema: no <version>, no <fo>, no envelope_from, SPF result without scope, empty human_result.
  'old_draft_from_wiki.xml': {
    report: {
      org_name: 'acme.com',
      email: 'noreply-dmarc-support@acme.com',
      extra_contact_info: 'http://acme.com/dmarc/support',
      // Larger than 2^53: must survive as text.
      report_id: '9391651994964116463',
      date_range: { begin: '2012-04-28T00:00:00.000Z', end: '2012-04-28T23:59:59.000Z' },
      errors: [],
      policy_published: { domain: 'example.com', adkim: 'r', aspf: 'r', p: 'none', sp: 'none', pct: 100 },
      records: [
        {
          source_ip: '72.150.241.94',
          count: 2,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'pass',
          reasons: noReasons,
          header_from: 'example.com',
          dkim_results: [{ domain: 'example.com', result: 'fail' }],
          spf_results: [{ domain: 'example.com', result: 'pass' }],
        },
      ],
      // spf=pass in policy_evaluated: DMARC passes for both messages.
      totals: { messages: 2, dmarc_pass: 2, dmarc_fail: 0 },
    },
    bySourceIp: { '72.150.241.94': 2 },
    warnings: [],
  },
  // Two records; <envelope_from></envelope_from> empty in both.
  'usssa.com!example.com!1538784000!1538870399.xml': {
    report: {
      version: '1.0',
      org_name: 'usssa.com',
      email: 'postmaster@usssa.com',
      report_id: '8953b4d4a4ee4218b6ac0e2cb2667ee1',
      date_range: { begin: '2018-10-06T00:00:00.000Z', end: '2018-10-06T23:59:59.000Z' },
      errors: [],
      policy_published: {
        domain: 'example.com',
        adkim: 'r',
        aspf: 'r',
        p: 'none',
        sp: 'none',
        pct: 100,
        fo: '0',
      },
      records: [
        {
          source_ip: '12.20.127.40',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          dkim_results: [],
          spf_results: [],
        },
        {
          source_ip: '199.230.200.36',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          dkim_results: [],
          spf_results: [],
        },
      ],
      totals: { messages: 2, dmarc_pass: 0, dmarc_fail: 2 },
    },
    bySourceIp: { '12.20.127.40': 1, '199.230.200.36': 1 },
    warnings: [],
  },
  'veeam.com!example.com!1530133200!1530219600.xml': {
    report: {
      org_name: 'veeam.com',
      email: 'noreply.it.dmarc@veeam.com',
      report_id: 'sonexushealth.com:1530233361',
      date_range: { begin: '2018-06-27T21:00:00.000Z', end: '2018-06-28T21:00:00.000Z' },
      errors: [],
      policy_published: { domain: 'example.com', adkim: 'r', aspf: 'r', p: 'none', sp: 'none', pct: 100 },
      records: [
        {
          source_ip: '199.230.200.36',
          count: 1,
          disposition: 'none',
          policy_dkim: 'fail',
          policy_spf: 'fail',
          reasons: noReasons,
          header_from: 'example.com',
          dkim_results: [],
          spf_results: [{ domain: '', result: 'none' }],
        },
      ],
      totals: { messages: 1, dmarc_pass: 0, dmarc_fail: 1 },
    },
    bySourceIp: { '199.230.200.36': 1 },
    warnings: [],
  },
};

// Files the parser must refuse, and what the refusal must say.
const REJECTED: Record<string, { kind: string; message: RegExp }> = {
  // <email><bad-xml@bad-xml.net></email> and <header_from>bad<xml.net</header_from>.
  'invalid_xml.xml': { kind: 'malformed', message: /XML is malformed: Tag 'bad-xml@bad-xml\.net' .*line 5/ },
};

function messagesBySourceIp(report: DmarcAggregateReport): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const record of report.records)
    totals[record.source_ip] = (totals[record.source_ip] ?? 0) + record.count;
  return totals;
}

describe('DMARC aggregate fixtures', () => {
  it('has an expectation for every file in the fixture folder', () => {
    expect(listFixtures('dmarc-aggregate')).toEqual(Object.keys({ ...EXPECTED, ...REJECTED }).sort());
  });

  describe.each(Object.entries(EXPECTED))('%s', (name, expected) => {
    const parse = () => parseDmarcAggregate(readFixture('dmarc-aggregate', name));

    it('yields exactly what the file says', () => {
      const { warnings: _warnings, ...rest } = parse();
      expect(rest).toStrictEqual(expected.report);
    });

    it('counts messages per source IP and in total', () => {
      const report = parse();
      expect(messagesBySourceIp(report)).toEqual(expected.bySourceIp);
      const sum = Object.values(expected.bySourceIp).reduce((a, b) => a + b, 0);
      expect(report.totals.messages).toBe(sum);
      expect(report.totals.dmarc_pass + report.totals.dmarc_fail).toBe(sum);
    });

    it('reports every repair or default it applied, and nothing else', () => {
      const report = parse();
      expect(report.warnings).toHaveLength(expected.warnings.length);
      expected.warnings.forEach((fragment, i) => expect(report.warnings[i]).toContain(fragment));
    });
  });

  it.each(Object.entries(REJECTED))('rejects %s with a ReportParseError', (name, expected) => {
    const error = catchReportParseError(() => parseDmarcAggregate(readFixture('dmarc-aggregate', name)));
    expect(error.kind).toBe(expected.kind);
    expect(error.message).toMatch(expected.message);
  });
});
