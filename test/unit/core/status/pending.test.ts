import { describe, expect, it } from 'vitest';
import {
  domainStatus as deriveStatus,
  pendingView,
  type PendingChange,
  type ProtocolEvidence,
} from '../../../../main/core/status/index.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

/** A domain's status in every rule's words, as the runtime's status model derives it. */
const domainStatus = (input: Parameters<typeof deriveStatus>[0]) => deriveStatus(input, ALERT_CATALOGUE);

const toReject: PendingChange = {
  protocol: 'dmarc',
  summary: 'p=reject',
  changedAt: '2026-06-15T10:02:00Z',
  baselineAt: '2026-06-15T10:00:00Z',
  expect: { kind: 'present', tags: { p: 'reject' } },
};
const scan = (at: string, record: string | null): ProtocolEvidence => ({
  protocol: 'dmarc',
  source: 'service_scan',
  at,
  finding: record ? 'valid' : 'not_passing',
  record,
});

describe('pending changes', () => {
  it('waits while the evidence is no newer than the write', () => {
    const v = pendingView(toReject, [scan('2026-06-15T10:00:00Z', 'v=DMARC1; p=none')]);
    expect(v).toEqual({
      summary: 'p=reject',
      changedAt: '2026-06-15T10:02:00Z',
      state: 'waiting',
      words: 'waiting for the next check',
      evidence: null,
    });
  });

  it('a later check showing the new record confirms it: no longer pending', () => {
    expect(
      pendingView(toReject, [scan('2026-06-15T10:15:00Z', 'v=DMARC1; p=reject; rua=mailto:a@b.c')]),
    ).toBeNull();
  });

  it('a later check still showing the old record contradicts it, said plainly', () => {
    const v = pendingView(toReject, [scan('2026-06-15T10:15:00Z', 'v=DMARC1; p=none')]);
    expect(v?.state).toBe('contradicted');
    expect(v?.words).toBe('the service scan after the change still shows p=none');
    expect(v?.evidence).toEqual({
      source: 'service_scan',
      label: 'service scan',
      at: '2026-06-15T10:15:00Z',
    });
  });

  it('the newest later evidence decides (contradicted, then confirmed)', () => {
    const evidence = [
      scan('2026-06-15T10:15:00Z', 'v=DMARC1; p=none'),
      scan('2026-06-15T10:30:00Z', 'v=DMARC1; p=reject'),
    ];
    expect(pendingView(toReject, evidence)).toBeNull();
  });

  it('removals are confirmed by absence and contradicted by a record still published', () => {
    const removal: PendingChange = {
      protocol: 'bimi',
      summary: 'record removed',
      changedAt: '2026-06-15T10:02:00Z',
      baselineAt: null,
      expect: { kind: 'absent' },
    };
    const gone: ProtocolEvidence = {
      protocol: 'bimi',
      source: 'dns_event',
      at: '2026-06-15T10:10:00Z',
      finding: 'absent',
      record: null,
    };
    const still: ProtocolEvidence = {
      protocol: 'bimi',
      source: 'service_scan',
      at: '2026-06-15T10:10:00Z',
      finding: 'valid',
    };
    expect(pendingView(removal, [gone])).toBeNull();
    expect(pendingView(removal, [still])?.words).toBe(
      'the service scan after the change still shows the record',
    );
    // A bare "not passing" flag cannot tell.
    expect(pendingView(removal, [{ ...still, finding: 'not_passing' }])?.state).toBe('waiting');
  });

  it('a change with no prediction is settled by the next scan only', () => {
    const include: PendingChange = {
      protocol: 'spf',
      summary: 'include added',
      changedAt: '2026-06-15T10:02:00Z',
      baselineAt: '2026-06-15T10:00:00Z',
      expect: { kind: 'checked' },
    };
    const event: ProtocolEvidence = {
      protocol: 'spf',
      source: 'dns_event',
      at: '2026-06-15T10:05:00Z',
      finding: 'published',
    };
    expect(pendingView(include, [event])?.state).toBe('waiting');
    expect(
      pendingView(include, [
        event,
        { protocol: 'spf', source: 'service_scan', at: '2026-06-15T10:06:00Z', finding: 'valid' },
      ]),
    ).toBeNull();
  });

  it('the domain status shows the newest pending change on its protocol only', () => {
    const older: PendingChange = {
      ...toReject,
      summary: 'p=quarantine',
      changedAt: '2026-06-15T10:01:00Z',
      expect: { kind: 'present', tags: { p: 'quarantine' } },
    };
    const s = domainStatus({
      evidence: [scan('2026-06-15T10:00:00Z', 'v=DMARC1; p=none')],
      openAlerts: [],
      pending: [older, toReject],
    });
    expect(s.protocols.dmarc.pending?.summary).toBe('p=reject');
    expect(s.protocols.spf.pending).toBeNull();
    // The verdict stays with the evidence until it confirms the change.
    expect(s.dmarc?.policy).toBe('none');
  });
});
