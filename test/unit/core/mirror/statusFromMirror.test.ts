import { describe, expect, it } from 'vitest';
import {
  DOMAIN_ID,
  dnsEvent,
  failedSources,
  health,
  mirrorWithDomain,
  passingBaseline,
  source,
  write,
} from './payloads.ts';

const postureOf = (m: ReturnType<typeof passingBaseline>) => {
  const row = m.mirror.overview(m.accountId).find((r) => r.domainId === DOMAIN_ID)!;
  const detail = m.mirror.domainDetail(m.accountId, DOMAIN_ID)!;
  // The row and the header read the same status.
  expect(row.posture).toEqual(detail.posture);
  return row.posture;
};

describe('the status the mirror serves', () => {
  it('all passing with p=reject: all clear, the scan named as the evidence', () => {
    const p = postureOf(passingBaseline());
    expect(p.verdict).toEqual({ level: 'good', words: 'No problems found', reasons: [] });
    expect(p.protocols.spf.evidence).toEqual({
      source: 'service_scan',
      label: 'service scan',
      at: '2025-03-01T08:00:00.000Z',
    });
    expect(p.dmarc?.policy).toBe('reject');
  });

  it('a DNS event newer than the scan overrides it at once (same write as the alert); a later scan overrides the event', () => {
    const m = passingBaseline();
    const { alerts } = write(
      m.mirror,
      m.accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T08:35:00Z',
    );
    expect(alerts.map((a) => a.title)).toEqual(['SPF record of example.com disconnected']);
    let p = postureOf(m);
    expect([p.protocols.spf.state, p.protocols.spf.words, p.protocols.spf.evidence?.source]).toEqual([
      'failing',
      'disconnected',
      'dns_event',
    ]);
    expect([p.verdict.level, p.verdict.words]).toEqual(['problem', 'SPF disconnected']);
    expect(p.protocolsText).toBe('1 of 2 required pass · 3 of 3 optional set up');
    write(m.mirror, m.accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    p = postureOf(m);
    expect([p.protocols.spf.state, p.protocols.spf.evidence?.source]).toEqual(['passing', 'service_scan']);
  });

  it('the DNS watch: its confirmed removal overrides an older scan in the write that raises the alert; a later scan overrides it', () => {
    const m = passingBaseline();
    const record = (
      state: 'connected' | 'disconnected',
      answer: 'present' | 'absent' | 'unknown',
      checkedAt: string,
      stateCheckedAt: string,
    ) => ({
      protocol: 'spf' as const,
      name: 'example.com',
      answer,
      value: answer === 'present' ? 'v=spf1 include:_spf.google.com -all' : null,
      reason: answer === 'unknown' ? 'the resolver answered SERVFAIL' : null,
      ttl: 60,
      resolver: '127.0.0.1:5353',
      checkedAt,
      state,
      stateSince: stateCheckedAt,
      stateCheckedAt,
    });
    const watch = (r: ReturnType<typeof record>, at: string) =>
      m.mirror.writeDnsWatch([{ accountId: m.accountId, domainId: DOMAIN_ID, records: [r] }], at);
    // The baseline answer agrees with the scan; then DNS confirms SPF gone.
    watch(
      record('connected', 'present', '2025-03-01T08:10:00Z', '2025-03-01T08:10:00Z'),
      '2025-03-01T08:10:00Z',
    );
    expect(postureOf(m).protocols.spf.evidence?.label).toBe('DNS via 127.0.0.1:5353');
    const { alerts } = watch(
      record('disconnected', 'absent', '2025-03-01T08:31:00Z', '2025-03-01T08:31:00Z'),
      '2025-03-01T08:31:00Z',
    );
    expect(alerts.map((a) => a.title)).toEqual(['SPF record of example.com disconnected']);
    let p = postureOf(m);
    expect([p.protocols.spf.state, p.protocols.spf.words, p.protocols.spf.evidence]).toEqual([
      'failing',
      'disconnected',
      { source: 'dns_watch', label: 'DNS via 127.0.0.1:5353', at: '2025-03-01T08:31:00Z' },
    ]);
    expect([p.verdict.level, p.verdict.words]).toEqual(['problem', 'SPF disconnected']);
    // SERVFAIL afterwards: no evidence, the confirmed removal keeps its time and stays.
    watch(
      record('disconnected', 'unknown', '2025-03-01T08:33:00Z', '2025-03-01T08:31:00Z'),
      '2025-03-01T08:33:00Z',
    );
    p = postureOf(m);
    expect([p.protocols.spf.state, p.protocols.spf.evidence?.at]).toEqual([
      'failing',
      '2025-03-01T08:31:00Z',
    ]);
    // A later scan says what it saw: it wins until DNS answers again.
    write(
      m.mirror,
      m.accountId,
      'health',
      health('2025-03-01T08:40:00Z', { spf: false }),
      '2025-03-01T08:41:00Z',
    );
    p = postureOf(m);
    expect([p.protocols.spf.state, p.protocols.spf.evidence?.source]).toEqual(['failing', 'service_scan']);
  });

  it('a registered threat: never all clear while its alert is open', () => {
    const m = passingBaseline();
    write(
      m.mirror,
      m.accountId,
      'failed_sources',
      failedSources(source('BadMailer', true)),
      '2025-03-01T08:10:00Z',
    );
    expect(postureOf(m).verdict).toMatchObject({ level: 'problem', words: 'Threat sending as this domain' });
  });

  it('optional protocols not set up are neutral', () => {
    const m = mirrorWithDomain();
    write(
      m.mirror,
      m.accountId,
      'health',
      health('2025-03-01T08:00:00Z', { bimi: false, mta_sts: false, tls_rpt: false }),
      '2025-03-01T08:01:00Z',
    );
    const p = postureOf(m);
    expect([p.protocols.bimi.state, p.protocols.mta_sts.state, p.protocols.tls_rpt.state]).toEqual([
      'not_set_up',
      'not_set_up',
      'not_set_up',
    ]);
    expect(p.verdict.level).toBe('good');
  });

  it('a pending change waits for evidence newer than the write, then is confirmed or contradicted', () => {
    const m = passingBaseline();
    m.mirror.recordPendingChange({
      accountId: m.accountId,
      domainId: DOMAIN_ID,
      protocol: 'dmarc',
      summary: 'p=none',
      expect: { kind: 'present', tags: { p: 'none' } },
      at: '2025-03-01T08:40:00Z',
    });
    expect(postureOf(m).protocols.dmarc.pending).toMatchObject({
      summary: 'p=none',
      state: 'waiting',
      changedAt: '2025-03-01T08:40:00.000Z',
    });
    // The next scan still shows p=reject: said plainly.
    write(m.mirror, m.accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    expect(postureOf(m).protocols.dmarc.pending).toMatchObject({
      state: 'contradicted',
      words: 'the service scan after the change still shows p=reject',
    });
    // A later scan with the new record confirms it: no longer pending.
    const confirmed = { ...health('2025-03-01T09:30:00Z'), dmarc_record: 'v=DMARC1; p=none' };
    write(m.mirror, m.accountId, 'health', confirmed, '2025-03-01T09:31:00Z');
    const p = postureOf(m);
    expect(p.protocols.dmarc.pending).toBeNull();
    expect(p.verdict.words).toBe('DMARC not enforced (p=none)');
  });

  it('a pending change of an unknown domain is refused', () => {
    const m = passingBaseline();
    expect(() =>
      m.mirror.recordPendingChange({
        accountId: m.accountId,
        domainId: 1,
        protocol: 'spf',
        summary: 'x',
        expect: { kind: 'checked' },
      }),
    ).toThrow(/no domain 1/);
  });
});
