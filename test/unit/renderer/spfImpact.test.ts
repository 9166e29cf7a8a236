/**
 * The SPF impact preview computed on the real aggregate-report fixtures (./reportFixtureSources.ts): the
 * hosted record is modelled on what the reports say passed SPF (an Allow for each address whose mail passed),
 * and the preview of each change is checked against the reports' own SPF verdicts and counts.
 */
import { describe, expect, it } from 'vitest';
import type { SpfComposition } from '../../../shared/email-auth/hostedSpf.ts';
import type { ImpactSource } from '../../../renderer/src/lib/impact.ts';
import {
  describePlacement,
  placeSource,
  serviceOfInclude,
  spfChangeImpact,
} from '../../../renderer/src/lib/spfImpact.ts';
import { records, reportSources } from './reportFixtureSources.ts';

const spfPassed = [...new Set(records.filter((r) => r.policy_spf === 'pass').map((r) => r.source_ip))];
const spfFailed = [...new Set(records.filter((r) => r.policy_spf !== 'pass').map((r) => r.source_ip))];
const failedMessages = records.filter((r) => r.policy_spf !== 'pass').reduce((n, r) => n + r.count, 0);

/** The record the reports describe: what passed SPF is allowed, the rest soft-fails. */
const asReported: SpfComposition = {
  all: '~all',
  includes: [],
  ipActions: spfPassed.map((ip) => ({ ip, type: 'Allow' })),
};

describe('SPF impact preview on the real report fixtures', () => {
  it('has addresses that passed SPF and addresses that failed it', () => {
    expect(spfPassed.length).toBeGreaterThan(0);
    expect(spfFailed.length).toBeGreaterThan(2);
    expect(spfPassed.filter((ip) => spfFailed.includes(ip))).toEqual([]);
  });

  it('~all → -all: the sources the record does not cover now fail hard, with the reports’ own counts', () => {
    const impact = spfChangeImpact(asReported, { ...asReported, all: '-all' }, reportSources());
    expect(impact.worse.map((r) => r.name).sort()).toEqual([...spfFailed].sort());
    expect(impact.messages.worse).toBe(failedMessages);
    expect(impact.better).toEqual([]);
    expect(impact.unsure).toEqual([]);
    for (const row of impact.worse) {
      expect(row.before).toEqual({ outcome: 'softfail', via: '~all' });
      expect(row.after).toEqual({ outcome: 'fail', via: '-all' });
    }
    // Most messages first; mail that passes DMARC through DKIM is counted apart.
    const counts = impact.worse.map((r) => r.messages);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const dkimOnly = records
      .filter((r) => r.policy_spf !== 'pass' && r.policy_dkim === 'pass')
      .reduce((n, r) => n + r.count, 0);
    expect(impact.worse.reduce((n, r) => n + r.dmarcPass, 0)).toBe(dkimOnly);
  });

  it('-all → ~all softens the same sources; the all of an allowed address does not matter', () => {
    const strict = { ...asReported, all: '-all' as const };
    const impact = spfChangeImpact(strict, asReported, reportSources());
    expect(impact.better.map((r) => r.name).sort()).toEqual([...spfFailed].sort());
    expect(impact.worse).toEqual([]);
    expect(placeSource(spfPassed[0]!, strict)).toEqual({ outcome: 'pass', via: `ip4:${spfPassed[0]}` });
  });

  it('removing the Allow of an address that passed: its mail stops passing', () => {
    const [ip] = spfPassed;
    const impact = spfChangeImpact(
      asReported,
      { ...asReported, ipActions: asReported.ipActions.filter((a) => a.ip !== ip) },
      reportSources(),
    );
    const messages = records.filter((r) => r.source_ip === ip).reduce((n, r) => n + r.count, 0);
    expect(impact.worse).toHaveLength(1);
    expect(impact.worse[0]).toMatchObject({ name: ip, messages, before: { outcome: 'pass' } });
    expect(impact.worse[0]!.after.outcome).toBe('softfail');
  });

  it('a Reject of a network holding an allowed address stops it passing; the domain’s all decides', () => {
    const [ip] = spfPassed;
    const network = `${ip!.split('.').slice(0, 3).join('.')}.0/24`;
    const after: SpfComposition = {
      ...asReported,
      ipActions: [...asReported.ipActions, { ip: network, type: 'Reject' }],
    };
    const impact = spfChangeImpact(asReported, after, reportSources());
    expect(impact.worse.map((r) => r.name)).toEqual([ip]);
    expect(impact.worse[0]!.after).toEqual({
      outcome: 'softfail',
      via: `-ip4:${network}, so the domain's ~all decides`,
    });
    expect(impact.caveats.join(' ')).toMatch(/not a hard fail under ~all/);
  });

  it('an include of a service the reports cannot see into leaves the uncovered addresses unsure', () => {
    const after = { ...asReported, includes: ['_spf.esp.example'] };
    const impact = spfChangeImpact(asReported, after, reportSources());
    expect(impact.unsure.map((r) => r.name).sort()).toEqual([...spfFailed].sort());
    expect(impact.messages.unsure).toBe(failedMessages);
    expect(describePlacement(impact.unsure[0]!.after)).toBe(
      'pass or soft fail (may be in the networks of include:_spf.esp.example)',
    );
  });
});

describe('SPF impact preview, sources named after a sending service', () => {
  const google: ImpactSource = {
    source_name: 'Google',
    total_count: 1200,
    dmarc: { pass: 1150, fail: 50 },
    compliance: 96,
    status: 'compliant',
    is_registered_threat: false,
  };
  const host: ImpactSource = { ...google, source_name: 'mailhost.example.net', total_count: 40 };
  const record: SpfComposition = {
    all: '~all',
    includes: ['_spf.google.com', 'spf.mailhost.example.net'],
    ipActions: [],
  };

  it('removing include:_spf.google.com: the mail reported from Google stops passing', () => {
    const after = { ...record, includes: ['spf.mailhost.example.net'] };
    const impact = spfChangeImpact(record, after, [google, host]);
    expect(impact.worse).toHaveLength(1);
    expect(impact.worse[0]).toMatchObject({
      name: 'Google',
      messages: 1200,
      before: { outcome: 'pass', via: 'include:_spf.google.com' },
      after: { outcome: 'softfail', via: "no include of Google's, so ~all" },
    });
  });

  it('a host-named source is covered by an include under its domain', () => {
    expect(placeSource('mailhost.example.net', record)).toEqual({
      outcome: 'pass',
      via: 'include:spf.mailhost.example.net',
    });
    const impact = spfChangeImpact(record, { ...record, includes: ['_spf.google.com'] }, [google, host]);
    expect(impact.worse.map((r) => r.name)).toEqual(['mailhost.example.net']);
  });

  it('an include naming the service counts as that service’s (the sandbox’s .example includes too)', () => {
    expect(serviceOfInclude('_spf.google.com')).toBe('Google');
    expect(serviceOfInclude('_spf.hubspot.example')).toBe('HubSpot');
    expect(serviceOfInclude('servers.mcsv.example')).toBe('Mailchimp');
    expect(serviceOfInclude('spf.protection.outlook.example')).toBe('Microsoft');
    expect(serviceOfInclude('amazonses.example')).toBe('Amazon SES');
    expect(serviceOfInclude('_spf.esp.example')).toBeNull();
    expect(serviceOfInclude('google')).toBeNull();
  });
});
