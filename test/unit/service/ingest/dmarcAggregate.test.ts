import { describe, expect, it } from 'vitest';
import { parseDmarcAggregate, parseDmarcAggregateXml } from '../../../../service/ingest/index.ts';
import { catchReportParseError } from './catchReportParseError.ts';

const RECORD = (ip: string, count: number, dkim: string, spf: string, disposition = 'none') => `
  <record>
    <row>
      <source_ip>${ip}</source_ip>
      <count>${count}</count>
      <policy_evaluated><disposition>${disposition}</disposition><dkim>${dkim}</dkim><spf>${spf}</spf></policy_evaluated>
    </row>
    <identifiers><header_from>example.com</header_from></identifiers>
    <auth_results><spf><domain>example.com</domain><result>pass</result></spf></auth_results>
  </record>`;

const METADATA = `
  <report_metadata>
    <org_name>receiver.example</org_name>
    <email>dmarc@receiver.example</email>
    <report_id>r-1</report_id>
    <date_range><begin>1700000000</begin><end>1700086399</end></date_range>
  </report_metadata>`;

const POLICY = `
  <policy_published>
    <domain>example.com</domain><adkim>s</adkim><aspf>r</aspf><p>reject</p><sp>quarantine</sp><pct>50</pct>
  </policy_published>`;

/** A small valid report; pass replacements to break or vary one part. */
function report(parts: { metadata?: string; policy?: string; records?: string; head?: string } = {}): string {
  return `${parts.head ?? '<?xml version="1.0" encoding="UTF-8"?>'}
<feedback>
  <version>1.0</version>
  ${parts.metadata ?? METADATA}
  ${parts.policy ?? POLICY}
  ${parts.records ?? RECORD('192.0.2.1', 3, 'pass', 'fail')}
</feedback>`;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('DMARC aggregate: totals and DMARC result', () => {
  it('passes a record when either aligned DKIM or aligned SPF passed, and sums counts', () => {
    const records =
      RECORD('192.0.2.1', 3, 'pass', 'fail') +
      RECORD('192.0.2.2', 5, 'fail', 'pass') +
      RECORD('192.0.2.3', 7, 'fail', 'fail', 'reject') +
      RECORD('2001:DB8::1', 11, 'pass', 'pass', 'pass');
    const parsed = parseDmarcAggregateXml(report({ records }));
    expect(parsed.totals).toEqual({ messages: 26, dmarc_pass: 19, dmarc_fail: 7 });
    expect(parsed.records.map((r) => r.disposition)).toEqual(['none', 'none', 'reject', 'pass']);
    // IPv6 spelled in one case so per-source grouping is exact.
    expect(parsed.records[3]?.source_ip).toBe('2001:db8::1');
  });

  it('reads published policy values as given', () => {
    expect(parseDmarcAggregateXml(report()).policy_published).toStrictEqual({
      domain: 'example.com',
      adkim: 's',
      aspf: 'r',
      p: 'reject',
      sp: 'quarantine',
      pct: 50,
    });
  });

  it('keeps DMARCbis np and testing when present', () => {
    const policy =
      '<policy_published><domain>example.com</domain><p>none</p><np>reject</np><testing>y</testing></policy_published>';
    const parsed = parseDmarcAggregateXml(report({ policy }));
    expect(parsed.policy_published).toMatchObject({ p: 'none', sp: 'none', np: 'reject', testing: 'y' });
  });
});

describe('DMARC aggregate: what real receivers send', () => {
  it('reads multiple DKIM signatures, SPF results, reasons and report errors in order', () => {
    const records = `
      <record>
        <row><source_ip>198.51.100.7</source_ip><count>4</count>
          <policy_evaluated><disposition>none</disposition><dkim>fail</dkim><spf>fail</spf>
            <reason><type>forwarded</type></reason>
            <reason><type>Local_Policy</type><comment>arc=pass</comment></reason>
          </policy_evaluated></row>
        <identifiers><header_from>example.com</header_from><envelope_from>list.example</envelope_from></identifiers>
        <auth_results>
          <dkim><domain>example.com</domain><selector>s1</selector><result>FAIL</result></dkim>
          <dkim><domain>list.example</domain><selector>s2</selector><result>pass</result></dkim>
          <spf><domain>list.example</domain><scope>mfrom</scope><result>pass</result></spf>
          <spf><domain>mx.list.example</domain><scope>helo</scope><result>neutral</result></spf>
        </auth_results>
      </record>`;
    const metadata = METADATA.replace(
      '</report_metadata>',
      '<error>dns timeout</error><error>retry</error></report_metadata>',
    );
    const parsed = parseDmarcAggregateXml(report({ metadata, records }));
    expect(parsed.errors).toEqual(['dns timeout', 'retry']);
    const [record] = parsed.records;
    expect(record?.reasons).toStrictEqual([
      { type: 'forwarded' },
      { type: 'local_policy', comment: 'arc=pass' },
    ]);
    expect(record?.dkim_results).toStrictEqual([
      { domain: 'example.com', selector: 's1', result: 'fail' },
      { domain: 'list.example', selector: 's2', result: 'pass' },
    ]);
    expect(record?.spf_results.map((r) => `${r.scope}:${r.result}`)).toEqual(['mfrom:pass', 'helo:neutral']);
  });

  it('reads a report with a BOM and blank lines before the declaration', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(`\n\n  ${report()}`)]);
    expect(parseDmarcAggregate(withBom).report_id).toBe('r-1');
  });

  it('reads namespaced reports, prefixed or default', () => {
    const prefixed = report()
      .replace(/<(\/?)([a-z_]+)>/g, '<$1dmarc:$2>')
      .replace('<dmarc:feedback>', '<dmarc:feedback xmlns:dmarc="urn:ietf:params:xml:ns:dmarc-2.0">');
    const dflt = report().replace('<feedback>', '<feedback xmlns="urn:ietf:params:xml:ns:dmarc-2.0">');
    expect(parseDmarcAggregateXml(prefixed).totals.messages).toBe(3);
    expect(parseDmarcAggregateXml(dflt).totals.messages).toBe(3);
  });

  it('decodes XML entities and character references but never DOCTYPE entities', () => {
    const metadata = METADATA.replace(
      'receiver.example</org_name>',
      'AT&amp;T &#x4D;ail &#77;x&lt;1&gt;</org_name>',
    );
    expect(parseDmarcAggregateXml(report({ metadata })).org_name).toBe('AT&T Mail Mx<1>');

    const head = '<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY boom "EXPANDED">]>';
    const sneaky = report({
      head,
      metadata: METADATA.replace('receiver.example</org_name>', '&boom;</org_name>'),
    });
    expect(parseDmarcAggregateXml(sneaky).org_name).toBe('&boom;');
  });

  it('honours the encoding named in the XML declaration', () => {
    const head = '<?xml version="1.0" encoding="ISO-8859-1"?>';
    const text = report({
      head,
      metadata: METADATA.replace('receiver.example</org_name>', 'Télécom</org_name>'),
    });
    const latin1 = Uint8Array.from(text, (ch) => ch.charCodeAt(0));
    expect(parseDmarcAggregate(latin1).org_name).toBe('Télécom');
  });

  it('reads UTF-16 reports marked by their byte-order mark', () => {
    const text = report();
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) utf16[2 + i * 2] = text.charCodeAt(i);
    expect(parseDmarcAggregate(utf16).report_id).toBe('r-1');
  });

  it('maps the draft <identities> element to identifiers, saying so', () => {
    const records = RECORD('192.0.2.1', 1, 'pass', 'pass').replace(/identifiers>/g, 'identities>');
    const parsed = parseDmarcAggregateXml(report({ records }));
    expect(parsed.records[0]?.header_from).toBe('example.com');
    expect(parsed.warnings.join('\n')).toContain('identities');
  });

  it('accepts whole seconds written as decimals', () => {
    const metadata = METADATA.replace('<begin>1700000000</begin>', '<begin>1700000000.0</begin>');
    expect(parseDmarcAggregateXml(report({ metadata })).date_range.begin).toBe('2023-11-14T22:13:20.000Z');
  });

  it('reads records without auth_results or optional identifiers', () => {
    const records = `<record><row><source_ip>192.0.2.9</source_ip><count>1</count>
      <policy_evaluated><disposition>quarantine</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated>
      </row><identifiers><header_from>example.com</header_from></identifiers></record>`;
    const [record] = parseDmarcAggregateXml(report({ records })).records;
    expect(record).toStrictEqual({
      source_ip: '192.0.2.9',
      count: 1,
      disposition: 'quarantine',
      policy_dkim: 'fail',
      policy_spf: 'fail',
      reasons: [],
      header_from: 'example.com',
      dkim_results: [],
      spf_results: [],
    });
  });
});

describe('DMARC aggregate: refusals name what is wrong', () => {
  const cases: [string, string, string, RegExp][] = [
    ['no report_metadata', report({ metadata: '' }), 'missing_field', /feedback\/report_metadata is missing/],
    [
      'no org_name element',
      report({ metadata: METADATA.replace('<org_name>receiver.example</org_name>', '') }),
      'missing_field',
      /org_name is missing/,
    ],
    [
      'empty org_name and no email',
      report({
        metadata: METADATA.replace('receiver.example</org_name>', '</org_name>').replace(
          /<email>.*<\/email>/,
          '',
        ),
      }),
      'missing_field',
      /org_name is empty/,
    ],
    [
      'no report_id',
      report({ metadata: METADATA.replace('<report_id>r-1</report_id>', '') }),
      'missing_field',
      /report_metadata\/report_id/,
    ],
    [
      'no date_range',
      report({ metadata: METADATA.replace(/<date_range>.*<\/date_range>/, '') }),
      'missing_field',
      /report_metadata\/date_range is missing/,
    ],
    [
      'non-numeric begin',
      report({ metadata: METADATA.replace('1700000000', 'yesterday') }),
      'invalid_value',
      /date_range\/begin is "yesterday"/,
    ],
    [
      'begin after end',
      report({ metadata: METADATA.replace('1700000000', '1800000000') }),
      'invalid_value',
      /begin .* is after end/,
    ],
    ['no policy_published', report({ policy: '' }), 'missing_field', /policy_published is missing/],
    [
      'no policy domain',
      report({ policy: POLICY.replace('<domain>example.com</domain>', '') }),
      'missing_field',
      /policy_published\/domain/,
    ],
    [
      'unknown policy',
      report({ policy: POLICY.replace('<p>reject</p>', '<p>block</p>') }),
      'invalid_value',
      /policy_published\/p is "block"/,
    ],
    [
      'pct above 100',
      report({ policy: POLICY.replace('<pct>50</pct>', '<pct>150</pct>') }),
      'invalid_value',
      /pct/,
    ],
    ['no records', report({ records: '' }), 'missing_field', /no records/],
    [
      'a source_ip that is not an address',
      report({ records: RECORD('mail.example.com', 1, 'pass', 'pass') }),
      'invalid_value',
      /record\[0\]\/row\/source_ip is "mail\.example\.com"/,
    ],
    [
      'a negative count',
      report({ records: RECORD('192.0.2.1', -2, 'pass', 'pass') }),
      'invalid_value',
      /record\[0\]\/row\/count is "-2"/,
    ],
    [
      'an unknown DMARC verdict',
      report({ records: RECORD('192.0.2.1', 1, 'softfail', 'pass') }),
      'invalid_value',
      /policy_evaluated\/dkim is "softfail"/,
    ],
    [
      'no header_from',
      report({
        records: RECORD('192.0.2.1', 1, 'pass', 'pass').replace(
          /<identifiers>.*<\/identifiers>/,
          '<identifiers></identifiers>',
        ),
      }),
      'missing_field',
      /identifiers\/header_from/,
    ],
    [
      'a repeated policy_published',
      report({ policy: POLICY + POLICY }),
      'invalid_value',
      /policy_published appears 2 times/,
    ],
    [
      'another root element',
      '<?xml version="1.0"?><html><body/></html>',
      'missing_field',
      /<feedback> is missing/,
    ],
    ['unclosed tags', '<feedback><report_metadata>', 'malformed', /XML is malformed/],
    ['text that is not XML', 'Delivery has failed to these recipients', 'malformed', /XML is malformed/],
    ['nothing at all', '', 'malformed', /XML is malformed/],
  ];

  it.each(cases)('%s', (_label, xml, kind, message) => {
    const error = catchReportParseError(() => parseDmarcAggregate(bytes(xml)));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
  });
});

describe('DMARC aggregate: hostile XML', () => {
  it('never expands nested DOCTYPE entities (billion laughs)', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE f [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      report()
        .replace(/^<\?xml[^>]*>/, '')
        .replace('receiver.example</org_name>', '&b;</org_name>');
    expect(parseDmarcAggregateXml(xml).org_name).toBe('&b;');
  });

  it('refuses external entities', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/passwd">]><feedback>&x;</feedback>';
    expect(catchReportParseError(() => parseDmarcAggregateXml(xml)).kind).toBe('malformed');
  });

  it('refuses absurd nesting', () => {
    const xml = `<feedback>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</feedback>`;
    expect(catchReportParseError(() => parseDmarcAggregateXml(xml)).message).toMatch(/nested/i);
  });

  it('refuses element names that would pollute prototypes, and pollutes nothing', () => {
    const xml = report().replace('<version>1.0</version>', '<__proto__><polluted>yes</polluted></__proto__>');
    catchReportParseError(() => parseDmarcAggregateXml(xml));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
