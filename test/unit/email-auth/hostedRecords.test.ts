/**
 * The hosted-record pieces the service and the app's edit previews share: the hosted SPF record of a
 * composition, the MTA-STS policy an edit leaves and its policy id, the known sender behind an include, and
 * why a name is not a domain name.
 */
import { describe, expect, it } from 'vitest';
import { buildHostedSpfRecord, hostedSpfRecordToPublish } from '../../../shared/email-auth/hostedSpf.ts';
import {
  defaultMtaStsPolicy,
  mtaStsPolicyIdAfter,
  mtaStsPolicyWithMode,
  nextMtaStsPolicyId,
  updatedMtaStsPolicy,
} from '../../../shared/email-auth/hostedMtaSts.ts';
import { includeOwner, KNOWN_SENDER_NAMES } from '../../../shared/email-auth/knownSenders.ts';
import { domainNameProblem, isDomainName } from '../../../shared/email-auth/domainName.ts';

describe('hosted SPF record', () => {
  it('writes Reject actions first, then Allow by family, the includes in order and the all', () => {
    const built = buildHostedSpfRecord({
      all: '-all',
      includes: ['_spf.google.com', 'sendgrid.net'],
      ipActions: [
        { ip: '2001:db8::/32', type: 'Allow' },
        { ip: '192.0.2.0/24', type: 'Allow' },
        { ip: '198.51.100.7', type: 'Reject' },
      ],
    });
    expect(built.value).toBe(
      'v=spf1 -ip4:198.51.100.7 ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.google.com include:sendgrid.net -all',
    );
    expect(hostedSpfRecordToPublish('example.com.spf.hosted.authwatch.example', '~all')).toBe(
      'v=spf1 include:example.com.spf.hosted.authwatch.example ~all',
    );
  });

  it('refuses a record with more than 10 includes', () => {
    const includes = Array.from({ length: 11 }, (_, i) => `_spf${i}.example.net`);
    const built = buildHostedSpfRecord({ all: '~all', includes, ipActions: [] });
    expect(built.ok).toBe(false);
    expect(built.errors[0]!.message).toMatch(/limit of 10/);
  });
});

describe('hosted MTA-STS policy', () => {
  const current = {
    version: 'STSv1' as const,
    mode: 'testing' as const,
    max_age: 86400,
    mx: ['mx1.example.com'],
  };

  it('setup and reset write mode none, the live MX hosts and one week', () => {
    expect(defaultMtaStsPolicy(['mx.example.com'])).toEqual({
      version: 'STSv1',
      mode: 'none',
      max_age: 604800,
      mx: ['mx.example.com'],
    });
  });

  it('an update keeps the mx lines when none are given; a policy text is parsed as a whole', () => {
    const kept = updatedMtaStsPolicy(current, { mode: 'enforce', max_age: 1209600 });
    expect(kept.fromText).toBe(false);
    expect(kept.result.value).toMatchObject({ mode: 'enforce', max_age: 1209600, mx: ['mx1.example.com'] });
    const text = updatedMtaStsPolicy(current, { policy_text: 'version: STSv1\r\nmode: enforce\r\n' });
    expect(text.fromText).toBe(true);
    expect(text.result.errors.map((e) => e.field)).toContain('max_age');
  });

  it('a mode change takes the live MX hosts and keeps max_age', () => {
    expect(mtaStsPolicyWithMode(current, 'enforce', ['mx2.example.com']).value).toEqual({
      version: 'STSv1',
      mode: 'enforce',
      max_age: 86400,
      mx: ['mx2.example.com'],
    });
    expect(mtaStsPolicyWithMode(current, 'enforce', []).ok).toBe(false);
  });

  it('the policy id changes only with the served file, and is newer within one second', () => {
    const at = new Date('2026-03-01T10:00:00Z');
    expect(nextMtaStsPolicyId(null, at)).toBe('20260301100000');
    expect(nextMtaStsPolicyId('20260301100000', at)).toBe('202603011000001');
    const same = mtaStsPolicyIdAfter({ policy: current, id: 'old1' }, { ...current }, at);
    expect(same).toBe('old1');
    expect(mtaStsPolicyIdAfter({ policy: current, id: 'old1' }, { ...current, mode: 'enforce' }, at)).toBe(
      '20260301100000',
    );
  });
});

describe('known senders', () => {
  it('name the sending service behind an include target by the domain it is under', () => {
    expect(includeOwner('_spf.google.com')).toBe('Google');
    expect(includeOwner('spf.protection.outlook.com.')).toBe('Microsoft');
    expect(includeOwner('servers.mcsv.net')).toBe('Mailchimp');
    expect(includeOwner('sendgrid.net')).toBe('SendGrid');
    expect(includeOwner('_spf.example.net')).toBeNull();
    expect(includeOwner('com')).toBeNull();
    expect(KNOWN_SENDER_NAMES.has('Amazon SES')).toBe(true);
  });
});

describe('domainNameProblem', () => {
  it('says why a name is refused, and agrees with isDomainName', () => {
    const cases: [string, RegExp | null][] = [
      ['not a domain', /space/],
      ['example', /single label/],
      ['a..example.com', /label 2 is empty/],
      ['-a.example', /hyphen/],
      ['host.123', /top-level label/],
      [`${'x'.repeat(64)}.com`, /longer than 63/],
      ['a_b.example', /underscore/],
      ['ex@mple.com', /"@"/],
      ['', /empty/],
      ['ok.example', null],
      ['ok.example.', null],
    ];
    for (const [name, reason] of cases) {
      const problem = domainNameProblem(name);
      if (reason === null) expect(problem).toBeNull();
      else expect(problem).toMatch(reason);
      expect(problem === null).toBe(isDomainName(name));
    }
  });
});
