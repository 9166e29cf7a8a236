/**
 * The records an SPF or MTA-STS edit will publish, previewed from the panels' answers (GET hosted-spf, GET
 * mta-sts, the last check-dns result) with the builders the service itself uses (shared/email-auth).
 */
import { describe, expect, it } from 'vitest';
import { buildHostedSpfRecord } from '../../../shared/email-auth/hostedSpf.ts';
import { parseMtaStsPolicy } from '../../../shared/email-auth/mtaStsPolicy.ts';
import { recordPreviews, type CurrentRecords } from '../../../renderer/src/lib/editPreview.ts';
import { compositionOf, hostedSpfState, mtaStsState } from '../../../renderer/src/lib/hostedState.ts';
import type { PanelData } from '../../../shared/bridge/panelData.ts';

const FQDN = 'example.com';
const HOSTED = 'example.com.spf.hosted.authwatch.example';
/** GET hosted-spf's data as the service answers it (presentHostedSpf). */
const hostedSpfData = {
  domain_id: 7,
  enabled: true,
  hosted_record_name: HOSTED,
  hosted_record_value: 'v=spf1 -ip4:198.51.100.7 ip4:192.0.2.0/24 include:_spf.google.com ~all',
  record_to_publish: `v=spf1 include:${HOSTED} ~all`,
  all: '~all',
  lookup_count: 4,
  lookup_limit: 10,
  includes: [{ id: 3, include_content: '_spf.google.com', lookup_count: 4, created_at: '2026-01-01' }],
  ip_actions: [
    { id: 5, ip: '198.51.100.7', type: 'Reject', created_at: '2026-01-01' },
    { id: 6, ip: '192.0.2.0/24', type: 'Allow', created_at: '2026-01-01' },
  ],
} satisfies PanelData<'hosted_spf'>;
const spfState = hostedSpfState(hostedSpfData)!;
const withSpf: CurrentRecords = { dmarc: null, spf: hostedSpfData.hosted_record_value, hostedSpf: spfState };

describe('hosted SPF edit previews', () => {
  it('read the composition the service answers, which rebuilds the record it serves', () => {
    expect(compositionOf(spfState)).toEqual({
      all: '~all',
      includes: ['_spf.google.com'],
      ipActions: [
        { ip: '198.51.100.7', type: 'Reject' },
        { ip: '192.0.2.0/24', type: 'Allow' },
      ],
    });
    expect(buildHostedSpfRecord(compositionOf(spfState)).value).toBe(hostedSpfData.hosted_record_value);
    expect(hostedSpfState(JSON.parse('{"nope":1}'))).toBeNull();
  });

  it('adding an include: the hosted record with it, at the hosted name, and what the lookups will be', () => {
    const [p] = recordPreviews('addSpfInclude', FQDN, withSpf, { include_content: 'SendGrid.net.' });
    expect(p).toMatchObject({
      name: HOSTED,
      current: hostedSpfData.hosted_record_value,
      proposed: 'v=spf1 -ip4:198.51.100.7 ip4:192.0.2.0/24 include:_spf.google.com include:sendgrid.net ~all',
      problem: null,
    });
    expect(p!.note).toMatch(/4 of 10 now, plus 1 for sendgrid\.net/);
    const [again] = recordPreviews('addSpfInclude', FQDN, withSpf, { include_content: '_spf.google.com' });
    expect(again!.problem).toBe('_spf.google.com is already included');
    const [self] = recordPreviews('addSpfInclude', FQDN, withSpf, { include_content: HOSTED });
    expect(self!.problem).toMatch(/include itself/);
  });

  it('removing an include or an IP action by the id picked; without an id it says what to choose', () => {
    const [p] = recordPreviews('deleteSpfInclude', FQDN, withSpf, undefined, { include_id: 3 });
    expect(p!.proposed).toBe('v=spf1 -ip4:198.51.100.7 ip4:192.0.2.0/24 ~all');
    expect(p!.note).toBe('DNS lookups: 4 → 0 of 10.');
    expect(recordPreviews('deleteSpfInclude', FQDN, withSpf, undefined, {})[0]!.problem).toMatch(/choose/);
    const [ip] = recordPreviews('deleteSpfIpAction', FQDN, withSpf, undefined, { ip_action_id: 5 });
    expect(ip!.proposed).toBe('v=spf1 ip4:192.0.2.0/24 include:_spf.google.com ~all');
  });

  it('adding an IP action: written canonically, Reject first; an address with an action is refused', () => {
    const [p] = recordPreviews('addSpfIpAction', FQDN, withSpf, { ip: '2001:DB8::/32', type: 'Allow' });
    expect(p!.proposed).toBe(
      'v=spf1 -ip4:198.51.100.7 ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.google.com ~all',
    );
    const [r] = recordPreviews('addSpfIpAction', FQDN, withSpf, { ip: '203.0.113.9', type: 'Reject' });
    expect(r!.proposed).toMatch(/^v=spf1 -ip4:198\.51\.100\.7 -ip4:203\.0\.113\.9 ip4:/);
    const [dup] = recordPreviews('addSpfIpAction', FQDN, withSpf, { ip: '192.0.2.0/24', type: 'Reject' });
    expect(dup!.problem).toBe('192.0.2.0/24 already has the action Allow');
  });

  it('changing the all: the hosted record and the record the customer publishes at the domain', () => {
    const previews = recordPreviews('updateHostedSpf', FQDN, withSpf, { all: '-all' });
    expect(previews.map((p) => [p.name, p.proposed])).toEqual([
      [HOSTED, 'v=spf1 -ip4:198.51.100.7 ip4:192.0.2.0/24 include:_spf.google.com -all'],
      [FQDN, `v=spf1 include:${HOSTED} -all`],
    ]);
    expect(previews[1]!.note).toMatch(/You publish this one/);
  });

  it('without the hosted record read, an include edit says so instead of guessing', () => {
    const [p] = recordPreviews(
      'addSpfInclude',
      FQDN,
      { dmarc: null, spf: null, hostedSpf: null },
      {
        include_content: 'sendgrid.net',
      },
    );
    expect(p!.proposed).toBeNull();
    expect(p!.problem).toMatch(/could not be read/);
  });
});

/** GET mta-sts's data (presentMtaSts) and GET dns-fetch-result's data (runDnsFetch). */
const mtaStsData = {
  mode: 'testing',
  max_age: 86400,
  mx: ['mx1.example.com'],
  policy_id: '20260101120000',
  hosted_dns_records: [
    {
      type: 'TXT',
      name: 'example.com.mta-sts.hosted.authwatch.example',
      value: 'v=STSv1; id=20260101120000',
    },
  ],
} satisfies PanelData<'mta_sts'>;
const dnsFetch = {
  fetched_at: '2026-03-01T09:30:00.000Z',
  mx: ['10 mx1.example.com', '20 mx2.example.com.'],
} satisfies PanelData<'dns_fetch_result'>;
const NOW = new Date('2026-03-02T08:00:00Z');
const withMta: CurrentRecords = { dmarc: null, spf: null, mtaSts: mtaStsState(FQDN, mtaStsData, dnsFetch) };

describe('MTA-STS edit previews', () => {
  it('replacing the policy: the _mta-sts record with a new id and the policy file with CRLF lines', () => {
    const [txt, file] = recordPreviews(
      'updateMtaStsPolicy',
      FQDN,
      withMta,
      { mode: 'enforce', max_age: 1209600 },
      {},
      NOW,
    );
    expect(txt).toMatchObject({
      name: '_mta-sts.example.com',
      current: 'v=STSv1; id=20260101120000',
      proposed: 'v=STSv1; id=20260302080000',
    });
    expect(txt!.note).toMatch(/example\.com\.mta-sts\.hosted\.authwatch\.example/);
    expect(file).toMatchObject({
      name: 'https://mta-sts.example.com/.well-known/mta-sts.txt',
      kind: 'file',
      current: 'version: STSv1\r\nmode: testing\r\nmx: mx1.example.com\r\nmax_age: 86400\r\n',
      proposed: 'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmax_age: 1209600\r\n',
    });
    expect(parseMtaStsPolicy(file!.proposed!).ok).toBe(true);
  });

  it('setting the mode takes the MX hosts of the last DNS check, as the service takes the live ones', () => {
    const [, file] = recordPreviews('setMtaStsMode', FQDN, withMta, { mode: 'enforce' }, {}, NOW);
    expect(file!.proposed).toBe(
      'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: mx2.example.com\r\nmax_age: 86400\r\n',
    );
    expect(file!.note).toMatch(/last DNS check \(2026-03-01 09:30 UTC\)/);
  });

  it('reset writes mode none and one week; the same file keeps its id', () => {
    const [, file] = recordPreviews('resetMtaSts', FQDN, withMta, undefined, {}, NOW);
    expect(file!.proposed).toBe(
      'version: STSv1\r\nmode: none\r\nmx: mx1.example.com\r\nmx: mx2.example.com\r\nmax_age: 604800\r\n',
    );
    const [txt] = recordPreviews(
      'updateMtaStsPolicy',
      FQDN,
      withMta,
      { mode: 'testing', max_age: 86400 },
      {},
      NOW,
    );
    expect(txt!.proposed).toBe('v=STSv1; id=20260101120000');
    expect(txt!.note).toMatch(/^Unchanged/);
  });

  it('setup before any policy needs the MX hosts; an invalid change names its problem', () => {
    const none: CurrentRecords = { dmarc: null, spf: null, mtaSts: mtaStsState(FQDN, null, dnsFetch) };
    const [txt, file] = recordPreviews('setupMtaSts', FQDN, none, undefined, {}, NOW);
    expect(txt!.current).toBeNull();
    expect(txt!.proposed).toBe('v=STSv1; id=20260302080000');
    expect(file!.proposed).toMatch(/^version: STSv1\r\nmode: none\r\n/);
    const blind: CurrentRecords = { dmarc: null, spf: null, mtaSts: mtaStsState(FQDN, null, null) };
    expect(recordPreviews('setupMtaSts', FQDN, blind, undefined, {}, NOW)[1]!.problem).toMatch(/live MX/);
    const [bad] = recordPreviews('updateMtaStsPolicy', FQDN, withMta, { mode: 'enforce', mx: [] }, {}, NOW);
    expect(bad!.problem).toMatch(/max_age/);
    expect(recordPreviews('checkMtaSts', FQDN, withMta, undefined)).toEqual([]);
  });
});
