import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../../main/core/delivery/metrics.ts';
import { LIVE_CHECKS } from '../../../../main/core/livechecks/registry.ts';
import { DOMAIN_ID, mirrorWithDomain } from '../mirror/payloads.ts';

describe('the live checks on /metrics', () => {
  it('exports lookups per SPF record and DNSBL listings with the alerts’ labels', async () => {
    const { mirror, accountId } = mirrorWithDomain();
    const spf = {
      domain: 'example.com',
      record: 'v=spf1 -all',
      lookups: 11,
      voids: 1,
      status: 'permerror',
      problems: [],
      terms: [],
      service: null,
    };
    mirror.writeLiveCheck({
      check: 'spf_lookups',
      accountId,
      domainId: DOMAIN_ID,
      dnsSeen: null,
      status: 'problem',
      words: '11',
      result: spf,
    });
    const answers = [
      {
        ip: '192.0.2.25',
        source: 'MX mx1.example.com',
        zone: 'bl.example.net',
        kind: 'listed',
        codes: ['127.0.0.2'],
        reason: 'spam',
      },
      { ip: '192.0.2.26', source: 'MX mx2.example.com', zone: 'bl.example.net', kind: 'clear' },
      {
        ip: '192.0.2.26',
        source: 'MX mx2.example.com',
        zone: 'zen.spamhaus.org',
        kind: 'error',
        why: 'refused',
      },
    ];
    mirror.writeLiveCheck({
      check: 'dnsbl_listings',
      accountId,
      domainId: DOMAIN_ID,
      dnsSeen: null,
      status: 'problem',
      words: '1',
      result: { ips: 2, answers },
    });
    const text = await createMetrics({
      mirror,
      budgets: () => new Map(),
      now: () => Date.now(),
      liveChecks: LIVE_CHECKS,
    }).textRegistry.metrics();
    expect(text).toContain('authwatch_spf_lookups{account="Acme MSP",domain="example.com"} 11');
    expect(text).toContain('authwatch_spf_void_lookups{account="Acme MSP",domain="example.com"} 1');
    expect(text).toContain(
      'authwatch_dnsbl_listed{account="Acme MSP",domain="example.com",zone="bl.example.net",ip="192.0.2.25"} 1',
    );
    expect(text).toContain(
      'authwatch_dnsbl_listed{account="Acme MSP",domain="example.com",zone="bl.example.net",ip="192.0.2.26"} 0',
    );
    // A refused query is no finding: it is not exported as "not listed".
    expect(text).not.toContain('zone="zen.spamhaus.org"');
  });
});
