import { describe, expect, it } from 'vitest';
import { PROTOCOLS, type Protocol } from '../../../../main/core/signals/primitives.ts';
import {
  protocolStatus,
  type Finding,
  type ProtocolEvidence,
  type ProtocolState,
} from '../../../../main/core/status/index.ts';

const REQUIRED: Protocol[] = ['dmarc', 'spf'];
const OPTIONAL: Protocol[] = ['mta_sts', 'tls_rpt', 'bimi'];

function ev(
  protocol: Protocol,
  finding: Finding,
  at: string,
  source: ProtocolEvidence['source'] = 'service_scan',
  record?: string | null,
): ProtocolEvidence {
  return { protocol, finding, at, source, ...(record !== undefined ? { record } : {}) };
}

// Every finding (or none) × required/optional × disconnect alert open or not, with the state and words the
// user reads. Written out rather than computed: this table is the product's rule.
const TABLE: [Finding | null, 'required' | 'optional', boolean, ProtocolState, string][] = [
  [null, 'required', false, 'unknown', 'not checked yet'],
  [null, 'required', true, 'unknown', 'not checked yet'],
  [null, 'optional', false, 'unknown', 'not checked yet'],
  [null, 'optional', true, 'unknown', 'not checked yet'],
  ['valid', 'required', false, 'passing', 'passing'],
  ['valid', 'required', true, 'passing', 'passing'],
  ['valid', 'optional', false, 'passing', 'passing'],
  ['valid', 'optional', true, 'passing', 'passing'],
  ['published', 'required', false, 'passing', 'published'],
  ['published', 'optional', false, 'passing', 'published'],
  ['invalid', 'required', false, 'failing', 'invalid record'],
  ['invalid', 'optional', false, 'failing', 'invalid record'],
  ['invalid', 'optional', true, 'failing', 'invalid record'],
  ['absent', 'required', false, 'failing', 'not set up'],
  ['absent', 'required', true, 'failing', 'disconnected'],
  ['absent', 'optional', false, 'not_set_up', 'not set up'],
  ['absent', 'optional', true, 'failing', 'disconnected'],
  ['not_passing', 'required', false, 'failing', 'not passing'],
  ['not_passing', 'required', true, 'failing', 'disconnected'],
  ['not_passing', 'optional', false, 'not_set_up', 'not set up'],
  ['not_passing', 'optional', true, 'failing', 'disconnected'],
];

describe('protocol status', () => {
  for (const [finding, kind, alertOpen, state, words] of TABLE) {
    for (const protocol of kind === 'required' ? REQUIRED : OPTIONAL) {
      it(`${protocol}: ${finding ?? 'no evidence'}${alertOpen ? ' with its disconnect alert open' : ''} → ${state}`, () => {
        const evidence = finding ? [ev(protocol, finding, '2026-06-15T10:00:00Z')] : [];
        const s = protocolStatus(protocol, evidence, { disconnectAlertOpen: alertOpen });
        expect(s.state).toBe(state);
        expect(s.words).toBe(words);
        expect(s.required).toBe(kind === 'required');
        expect(s.evidence).toEqual(
          finding ? { source: 'service_scan', label: 'service scan', at: '2026-06-15T10:00:00Z' } : null,
        );
      });
    }
  }

  it('reads only the evidence of its own protocol', () => {
    const s = protocolStatus('spf', [ev('dmarc', 'absent', '2026-06-15T10:00:00Z')], {
      disconnectAlertOpen: false,
    });
    expect(s.state).toBe('unknown');
  });

  it('a removal stays "disconnected" after later scans confirm the record is gone', () => {
    const s = protocolStatus(
      'dmarc',
      [
        ev('dmarc', 'absent', '2026-06-12T10:00:00Z', 'dns_event', null),
        ev('dmarc', 'absent', '2026-06-15T10:00:00Z', 'service_scan', null),
      ],
      { disconnectAlertOpen: false },
    );
    expect([s.state, s.words, s.evidence?.source]).toEqual(['failing', 'disconnected', 'service_scan']);
    // Restored since (the newest connection change is a connection): a later absence is not that removal.
    const again = protocolStatus(
      'dmarc',
      [
        ev('dmarc', 'absent', '2026-06-12T10:00:00Z', 'dns_event', null),
        ev('dmarc', 'published', '2026-06-13T10:00:00Z', 'dns_event', 'v=DMARC1; p=none'),
        ev('dmarc', 'not_passing', '2026-06-15T10:00:00Z'),
      ],
      { disconnectAlertOpen: false },
    );
    expect([again.state, again.words]).toEqual(['failing', 'invalid record']);
  });

  it('a required record removed as a DNS event saw it is "disconnected" even before any alert', () => {
    const s = protocolStatus('spf', [ev('spf', 'absent', '2026-06-15T10:00:00Z', 'dns_event', null)], {
      disconnectAlertOpen: false,
    });
    expect([s.state, s.words]).toEqual(['failing', 'disconnected']);
  });
});

describe('newest evidence wins', () => {
  const scanPass = ev('spf', 'valid', '2026-06-15T10:00:00Z');
  const removed = ev('spf', 'absent', '2026-06-15T10:05:00Z', 'dns_event', null);
  const rescanPass = ev('spf', 'valid', '2026-06-15T10:20:00Z');
  const rescanFail = ev('spf', 'not_passing', '2026-06-15T10:20:00Z');
  const ctx = { disconnectAlertOpen: false };

  it('a DNS change event newer than the health snapshot overrides it, and says so', () => {
    const s = protocolStatus('spf', [scanPass, removed], ctx);
    expect([s.state, s.words]).toEqual(['failing', 'disconnected']);
    expect(s.evidence).toEqual({ source: 'dns_event', label: 'DNS change event', at: removed.at });
  });

  it('a later health scan overrides the event', () => {
    const s = protocolStatus('spf', [scanPass, removed, rescanPass], ctx);
    expect([s.state, s.evidence?.source, s.evidence?.at]).toEqual(['passing', 'service_scan', rescanPass.at]);
    const still = protocolStatus('spf', [scanPass, removed, rescanFail], ctx);
    // The scan cannot say why it fails; the removal it follows can.
    expect([still.state, still.finding, still.evidence?.source]).toEqual([
      'failing',
      'absent',
      'service_scan',
    ]);
  });

  it('an older event does not override a newer scan', () => {
    const oldEvent = ev('spf', 'absent', '2026-06-15T09:00:00Z', 'dns_event', null);
    expect(protocolStatus('spf', [oldEvent, scanPass], ctx).state).toBe('passing');
  });

  it('the order the evidence arrives in does not matter', () => {
    const all = [rescanPass, scanPass, removed];
    expect(protocolStatus('spf', all, ctx)).toEqual(protocolStatus('spf', [...all].reverse(), ctx));
  });

  it('a record restored after a failing scan is published, not invalid', () => {
    const failed = ev('bimi', 'not_passing', '2026-06-15T10:00:00Z');
    const restored = ev(
      'bimi',
      'published',
      '2026-06-15T10:10:00Z',
      'dns_event',
      'v=BIMI1; l=https://x/l.svg',
    );
    const s = protocolStatus('bimi', [failed, restored], ctx);
    expect([s.state, s.words, s.record]).toEqual(['passing', 'published', 'v=BIMI1; l=https://x/l.svg']);
  });

  it('a published record that the scan after it fails is invalid (failing), also for optional protocols', () => {
    const connected = ev('mta_sts', 'published', '2026-06-15T10:00:00Z', 'dns_event', 'v=STSv1; id=1');
    const sameScan = ev('mta_sts', 'not_passing', '2026-06-15T10:00:00Z');
    const later = ev('mta_sts', 'not_passing', '2026-06-15T11:00:00Z');
    expect(protocolStatus('mta_sts', [connected, sameScan], ctx).state).toBe('failing');
    expect(protocolStatus('mta_sts', [connected, later], ctx).words).toBe('invalid record');
  });

  it('at the same instant the higher-ranked source is named', () => {
    const scan = ev('spf', 'not_passing', '2026-06-15T10:05:00Z');
    const s = protocolStatus('spf', [scan, removed], ctx);
    expect(s.evidence?.source).toBe('dns_event');
    expect(s.finding).toBe('absent');
  });

  it('keeps the newest record text any source carried', () => {
    const a = ev('dmarc', 'valid', '2026-06-15T10:00:00Z', 'service_scan', 'v=DMARC1; p=none');
    const b = ev('dmarc', 'valid', '2026-06-15T11:00:00Z', 'service_scan', 'v=DMARC1; p=reject');
    const c = ev('dmarc', 'valid', '2026-06-15T12:00:00Z', 'service_scan');
    expect(protocolStatus('dmarc', [c, b, a], ctx).record).toBe('v=DMARC1; p=reject');
  });
});

describe('every protocol is covered', () => {
  it('the five protocols, DMARC and SPF required', () => {
    expect(PROTOCOLS.map((p) => [p, protocolStatus(p, [], { disconnectAlertOpen: false }).required])).toEqual(
      [
        ['dmarc', true],
        ['spf', true],
        ['mta_sts', false],
        ['tls_rpt', false],
        ['bimi', false],
      ],
    );
  });
});
