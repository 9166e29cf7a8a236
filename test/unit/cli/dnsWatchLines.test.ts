// `authwatch status` says a resolver the DNS watch cannot trust in words, with what to do.
import { describe, expect, it } from 'vitest';
import { dnsWatchLines } from '../../../main/cli/commands/status.ts';
import type { DnsWatchStatus } from '../../../shared/bridge/dnsWatch.ts';

const status: DnsWatchStatus = {
  settings: { enabled: true, servers: [], floorSeconds: 60, ceilingSeconds: 3600, ratePerSecond: 100 },
  running: true,
  source: 'system',
  servers: ['10.255.255.53:53'],
  records: 60,
  queriesPerSecond: 0,
  checksPerSecond: 0,
  roundSeconds: 0,
  paceAt: null,
  oldestCheckedAt: null,
  newestCheckedAt: null,
  unknown: 60,
  unavailable: null,
};

describe('status: the DNS watch', () => {
  it('says DNS is unavailable, why, and what to do', () => {
    const text = dnsWatchLines(
      {
        ...status,
        unavailable: {
          reason: '10.255.255.53:53 answers that the DNS root itself does not exist (NXDOMAIN)',
          resolver: '10.255.255.53:53',
          since: '2026-11-29T00:00:00Z',
        },
      },
      Date.parse('2026-11-29T00:05:00Z'),
    );
    expect(text).toContain(
      'DNS unavailable: 10.255.255.53:53 answers that the DNS root itself does not exist (NXDOMAIN). The watch ignores its answers — pick a resolver (Settings → DNS watch, or --dns-server HOST[:PORT]).',
    );
  });

  it('says nothing of it while the resolver can be trusted', () => {
    expect(dnsWatchLines(status, Date.now())).not.toContain('unavailable');
  });
});
