import { describe, expect, it } from 'vitest';
import {
  domainStatus as deriveStatus,
  dnsWatchEvidence,
  pendingView,
  protocolStatus,
  type ProtocolEvidence,
  type WatchedRecord,
} from '../../../../main/core/status/index.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

/** A domain's status in every rule's words, as the runtime's status model derives it. */
const domainStatus = (input: Parameters<typeof deriveStatus>[0]) => deriveStatus(input, ALERT_CATALOGUE);

const SPF = 'v=spf1 include:_spf.google.com -all';

function watched(overrides: Partial<WatchedRecord> = {}): WatchedRecord {
  return {
    protocol: 'spf',
    answer: 'present',
    value: SPF,
    resolver: '127.0.0.1:5353',
    state: 'connected',
    stateCheckedAt: '2026-06-15T10:10:00Z',
    ...overrides,
  };
}

const scan = (finding: ProtocolEvidence['finding'], at: string): ProtocolEvidence => ({
  protocol: 'spf',
  source: 'service_scan',
  finding,
  at,
});

// Every (answer, confirmed state) pair the watch can store, with what the status reads from it. The latest
// answer may disagree with the confirmed state while a change waits for confirmation: then only the state
// counts, as of its last agreeing answer.
const TABLE: [WatchedRecord['answer'], WatchedRecord['state'], ProtocolEvidence['finding'] | null][] = [
  ['present', 'connected', 'valid'],
  ['absent', 'connected', 'valid'],
  ['invalid', 'connected', 'valid'],
  ['unknown', 'connected', 'valid'],
  ['absent', 'disconnected', 'absent'],
  ['invalid', 'disconnected', 'invalid'],
  ['present', 'disconnected', 'not_passing'],
  ['unknown', 'disconnected', 'not_passing'],
  ['present', null, null],
  ['absent', null, null],
  ['unknown', null, null],
];

describe('the DNS watch as evidence', () => {
  for (const [answer, state, finding] of TABLE) {
    it(`latest answer ${answer}, confirmed ${state ?? 'nothing yet'} → ${finding ?? 'no evidence'}`, () => {
      const e = dnsWatchEvidence(watched({ answer, state }));
      expect(e?.finding ?? null).toBe(finding);
      if (e) expect([e.source, e.at, e.via]).toEqual(['dns_watch', '2026-06-15T10:10:00Z', '127.0.0.1:5353']);
    });
  }

  it('carries the record text only from an answer that agrees with the confirmed state', () => {
    expect(dnsWatchEvidence(watched())?.record).toBe(SPF);
    expect(dnsWatchEvidence(watched({ answer: 'unknown', value: null }))).not.toHaveProperty('record');
    expect(
      dnsWatchEvidence(watched({ answer: 'absent', value: null, state: 'disconnected' }))?.record,
    ).toBeNull();
  });

  it('says where it came from and how old it is on hover: "DNS via 127.0.0.1:5353"', () => {
    const s = protocolStatus('spf', [dnsWatchEvidence(watched())!], { disconnectAlertOpen: false });
    expect(s.evidence).toEqual({
      source: 'dns_watch',
      label: 'DNS via 127.0.0.1:5353',
      at: '2026-06-15T10:10:00Z',
    });
  });
});

describe('DNS watch against the service scan: the newest fact wins', () => {
  const ctx = { disconnectAlertOpen: false };
  const removed = dnsWatchEvidence(
    watched({ answer: 'absent', value: null, state: 'disconnected', stateCheckedAt: '2026-06-15T10:10:00Z' }),
  )!;
  const published = dnsWatchEvidence(watched({ stateCheckedAt: '2026-06-15T10:10:00Z' }))!;

  it('DNS seeing SPF removed after a passing scan: failing, from DNS; the alert it raised says disconnected', () => {
    const s = protocolStatus('spf', [scan('valid', '2026-06-15T10:00:00Z'), removed], ctx);
    expect([s.state, s.finding, s.evidence?.source]).toEqual(['failing', 'absent', 'dns_watch']);
    const withAlert = protocolStatus('spf', [scan('valid', '2026-06-15T10:00:00Z'), removed], {
      disconnectAlertOpen: true,
    });
    expect([withAlert.state, withAlert.words]).toEqual(['failing', 'disconnected']);
  });

  it('a scan after the DNS answer overrides it, either way', () => {
    const later = '2026-06-15T10:20:00Z';
    expect(protocolStatus('spf', [removed, scan('valid', later)], ctx)).toMatchObject({
      state: 'passing',
      evidence: { source: 'service_scan', at: later },
    });
    expect(protocolStatus('spf', [published, scan('not_passing', later)], ctx)).toMatchObject({
      state: 'failing',
      words: 'invalid record',
      evidence: { source: 'service_scan' },
    });
  });

  it('DNS seeing the record back after a failing scan: passing, from DNS', () => {
    const s = protocolStatus('spf', [scan('not_passing', '2026-06-15T10:00:00Z'), published], ctx);
    expect([s.state, s.words, s.evidence?.label]).toEqual(['passing', 'passing', 'DNS via 127.0.0.1:5353']);
  });

  it('an invalid record DNS found is failing with its text', () => {
    const bad = dnsWatchEvidence(
      watched({ answer: 'invalid', value: `${SPF}\nv=spf1 -all`, state: 'disconnected' }),
    )!;
    const s = protocolStatus('spf', [scan('valid', '2026-06-15T10:00:00Z'), bad], ctx);
    expect([s.state, s.words, s.record]).toEqual(['failing', 'invalid record', `${SPF}\nv=spf1 -all`]);
  });

  it('SERVFAIL or a timeout is no evidence: never failing, the scan keeps its word', () => {
    // The resolver failed before any definite answer: no evidence at all.
    expect(
      dnsWatchEvidence(watched({ answer: 'unknown', value: null, state: null, stateCheckedAt: null })),
    ).toBeNull();
    // It fails after a confirmed "connected": the confirmation keeps its own (older) time, a newer scan wins.
    const stale = dnsWatchEvidence(
      watched({ answer: 'unknown', value: null, stateCheckedAt: '2026-06-15T09:00:00Z' }),
    )!;
    const s = protocolStatus('spf', [stale, scan('valid', '2026-06-15T10:00:00Z')], ctx);
    expect([s.state, s.evidence?.source]).toEqual(['passing', 'service_scan']);
    // Only the unknown answer, nothing else: still passing as last confirmed, not failing.
    expect(protocolStatus('spf', [stale], ctx).state).toBe('passing');
  });

  it('an optional protocol DNS never saw is not set up (neutral), not failing', () => {
    const none = dnsWatchEvidence(
      watched({ protocol: 'bimi', answer: 'absent', value: null, state: 'disconnected' }),
    )!;
    const s = protocolStatus('bimi', [none], ctx);
    expect([s.state, s.words]).toEqual(['not_set_up', 'not set up']);
  });

  it('the domain verdict and protocols line follow: header, row and tray read the same', () => {
    const evidence = [
      ...(['dmarc', 'spf', 'mta_sts', 'tls_rpt', 'bimi'] as const).map((protocol) => ({
        ...scan('valid', '2026-06-15T10:00:00Z'),
        protocol,
      })),
      removed,
    ];
    const alert = {
      rule: 'protocol_disconnected',
      severity: 'critical' as const,
      title: 'SPF record of example.com disconnected',
      details: { protocol: 'spf' },
    };
    const s = domainStatus({ evidence, openAlerts: [alert] });
    expect([s.verdict.level, s.verdict.words]).toEqual(['problem', 'SPF disconnected']);
    expect(s.protocolsText).toBe('1 of 2 required pass · 3 of 3 optional set up');
    expect(s.newest?.label).toBe('DNS via 127.0.0.1:5353');
  });
});

describe('DNS watch and pending changes', () => {
  const change = {
    protocol: 'dmarc' as const,
    summary: 'p=reject',
    changedAt: '2026-06-15T10:00:00Z',
    baselineAt: '2026-06-15T09:00:00Z',
    expect: { kind: 'present' as const, tags: { p: 'reject' } },
  };
  const dns = (value: string) =>
    dnsWatchEvidence(watched({ protocol: 'dmarc', value, stateCheckedAt: '2026-06-15T10:01:00Z' }))!;

  it('DNS showing the new record confirms the change', () => {
    expect(pendingView(change, [dns('v=DMARC1; p=reject')])).toBeNull();
  });

  it('DNS still showing the old record (a cached answer) is not a contradiction: still waiting', () => {
    expect(pendingView(change, [dns('v=DMARC1; p=none')])).toMatchObject({ state: 'waiting' });
  });
});
