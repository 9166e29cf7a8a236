import { describe, expect, it } from 'vitest';
import { PROTOCOLS, type Protocol } from '../../../../main/core/signals/primitives.ts';
import {
  ALL_CLEAR,
  domainStatus as deriveStatus,
  type Finding,
  type ProtocolEvidence,
  type VerdictAlert,
} from '../../../../main/core/status/index.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

/** A domain's status in every rule's words, as the runtime's status model derives it. */
const domainStatus = (input: Parameters<typeof deriveStatus>[0]) => deriveStatus(input, ALERT_CATALOGUE);

const AT = '2026-06-15T10:00:00Z';
const DMARC_REJECT = 'v=DMARC1; p=reject; rua=mailto:r@example.com';

function ev(protocol: Protocol, finding: Finding, record?: string | null, at = AT): ProtocolEvidence {
  return { protocol, finding, at, source: 'service_scan', ...(record !== undefined ? { record } : {}) };
}

/** All five protocols passing, DMARC at p=reject. */
function healthy(): ProtocolEvidence[] {
  return PROTOCOLS.map((p) => ev(p, 'valid', p === 'dmarc' ? DMARC_REJECT : undefined));
}

const THREAT: VerdictAlert = {
  rule: 'threat_source_appeared',
  severity: 'critical',
  title: 'Registered threat sending as acme-pay.example: BadMailer',
  details: { sourceName: 'BadMailer' },
};
const SCORE: VerdictAlert = {
  rule: 'score_dropped',
  severity: 'warning',
  title: 'Score of x dropped',
  details: {},
};
const disconnected = (protocol: Protocol, severity: 'critical' | 'warning'): VerdictAlert => ({
  rule: 'protocol_disconnected',
  severity,
  title: `${protocol} record disconnected`,
  details: { protocol },
});

describe('domain verdict', () => {
  it("all protocols passing and DMARC enforced: all clear, in the app's words", () => {
    const s = domainStatus({ evidence: healthy(), openAlerts: [] });
    expect(s.verdict).toEqual({ level: 'good', words: ALL_CLEAR, reasons: [] });
    expect(s.protocolsText).toBe('2 of 2 required pass · 3 of 3 optional set up');
  });

  it('a registered threat sending as the domain is a problem even when every protocol passes', () => {
    const s = domainStatus({ evidence: healthy(), openAlerts: [THREAT] });
    expect(s.verdict.level).toBe('problem');
    expect(s.verdict.words).toBe('Threat sending as this domain');
    const two = domainStatus({
      evidence: healthy(),
      openAlerts: [THREAT, { ...THREAT, details: { sourceName: 'B' } }],
    });
    expect(two.verdict.words).toBe('2 threats sending as this domain');
  });

  it('optional protocols not set up are neutral: the verdict stays all clear', () => {
    const evidence = [
      ev('dmarc', 'valid', DMARC_REJECT),
      ev('spf', 'valid'),
      ...(['mta_sts', 'tls_rpt', 'bimi'] as const).map((p) => ev(p, 'not_passing')),
    ];
    const s = domainStatus({ evidence, openAlerts: [] });
    expect(s.verdict.level).toBe('good');
    expect(PROTOCOLS.map((p) => s.protocols[p].state)).toEqual([
      'passing',
      'passing',
      'not_set_up',
      'not_set_up',
      'not_set_up',
    ]);
    expect(s.protocolsText).toBe('2 of 2 required pass · 0 of 3 optional set up');
  });

  it('SPF removed: the words say what is wrong', () => {
    const evidence = [
      ...healthy(),
      {
        protocol: 'spf' as const,
        finding: 'absent' as const,
        at: '2026-06-15T10:05:00Z',
        source: 'dns_event' as const,
        record: null,
      },
    ];
    const s = domainStatus({ evidence, openAlerts: [disconnected('spf', 'critical')] });
    expect(s.verdict.level).toBe('problem');
    expect(s.verdict.words).toBe('SPF disconnected');
    // The open disconnect alert is the same fact: said once.
    expect(s.verdict.reasons).toEqual(['SPF disconnected']);
    expect(s.protocolsText).toBe('1 of 2 required pass · 3 of 3 optional set up');
  });

  it('a threat outranks a failing protocol, and both are listed', () => {
    const evidence = healthy().map((e) => (e.protocol === 'spf' ? ev('spf', 'not_passing') : e));
    const s = domainStatus({ evidence, openAlerts: [THREAT] });
    expect(s.verdict.reasons).toEqual(['Threat sending as this domain', 'SPF failing']);
  });

  it('an optional protocol disconnected while its alert is open is a warning, named', () => {
    const evidence = healthy().map((e) => (e.protocol === 'mta_sts' ? ev('mta_sts', 'not_passing') : e));
    const s = domainStatus({ evidence, openAlerts: [disconnected('mta_sts', 'warning')] });
    expect([s.verdict.level, s.verdict.words]).toEqual(['warning', 'MTA-STS disconnected']);
    expect(s.protocolsText).toBe('2 of 2 required pass · 2 of 3 optional set up, 1 failing');
  });

  it('a disconnect alert the protocols do not show yet is still said', () => {
    const s = domainStatus({ evidence: healthy(), openAlerts: [disconnected('dmarc', 'critical')] });
    // Newest evidence says DMARC passes; the alert is open: the verdict may not be all clear.
    expect(s.protocols.dmarc.state).toBe('passing');
    expect([s.verdict.level, s.verdict.words]).toEqual(['problem', 'DMARC disconnected']);
  });

  it('DMARC at p=none or below 100 % is a warning', () => {
    const none = healthy().map((e) =>
      e.protocol === 'dmarc' ? ev('dmarc', 'valid', 'v=DMARC1; p=none') : e,
    );
    expect(domainStatus({ evidence: none, openAlerts: [] }).verdict).toMatchObject({
      level: 'warning',
      words: 'DMARC not enforced (p=none)',
    });
    const pct = healthy().map((e) =>
      e.protocol === 'dmarc' ? ev('dmarc', 'valid', 'v=DMARC1; p=quarantine; pct=25') : e,
    );
    expect(domainStatus({ evidence: pct, openAlerts: [] }).verdict.words).toBe(
      'DMARC enforced on 25 % of mail',
    );
    expect(domainStatus({ evidence: pct, openAlerts: [] }).dmarc).toEqual({
      policy: 'quarantine',
      subdomainPolicy: 'quarantine',
      pct: 25,
    });
  });

  it('a warning alert (score dropped) is a warning in its own words', () => {
    expect(domainStatus({ evidence: healthy(), openAlerts: [SCORE] }).verdict).toMatchObject({
      level: 'warning',
      words: 'Security score dropped',
    });
  });

  it('nothing known yet: not checked yet, never all clear', () => {
    const s = domainStatus({ evidence: [], openAlerts: [] });
    expect(s.verdict).toMatchObject({ level: 'unknown', words: 'Not checked yet' });
    expect(s.protocolsText).toBe('Not checked yet');
    expect(s.newest).toBeNull();
  });

  it('info alerts (a restore notice) change nothing', () => {
    const notice: VerdictAlert = {
      rule: 'protocol_restored',
      severity: 'info',
      title: 'restored',
      details: { protocol: 'spf' },
    };
    expect(domainStatus({ evidence: healthy(), openAlerts: [notice] }).verdict.level).toBe('good');
  });
});

// Every combination of the five protocols' findings (none, valid, invalid, absent, not_passing: 5^5 = 3,125)
// against no alert, an open threat and an open warning: the rules a user relies on hold in each.
describe('every combination', () => {
  const FINDINGS: (Finding | null)[] = [null, 'valid', 'invalid', 'absent', 'not_passing'];
  const ALERT_SETS: VerdictAlert[][] = [[], [THREAT], [SCORE]];
  function* combos(): Generator<(Finding | null)[]> {
    for (let i = 0; i < FINDINGS.length ** PROTOCOLS.length; i++) {
      let n = i;
      yield PROTOCOLS.map(() => {
        const f = FINDINGS[n % FINDINGS.length]!;
        n = Math.floor(n / FINDINGS.length);
        return f;
      });
    }
  }

  it('never all clear with an open critical alert or a required protocol not passing; counts consistent', () => {
    let checked = 0;
    for (const findings of combos()) {
      const evidence = PROTOCOLS.flatMap((p, i) => {
        const f = findings[i];
        return f ? [ev(p, f, p === 'dmarc' && f === 'valid' ? DMARC_REJECT : undefined)] : [];
      });
      for (const alerts of ALERT_SETS) {
        const s = domainStatus({ evidence, openAlerts: alerts });
        const requiredOk = findings[0] === 'valid' && findings[1] === 'valid';
        const optionalFailing = findings.slice(2).includes('invalid');
        const allClear = requiredOk && !optionalFailing && alerts.length === 0;
        expect(s.verdict.level === 'good', `${findings.join()} ${alerts.length}`).toBe(allClear);
        if (alerts.includes(THREAT))
          expect(s.verdict).toMatchObject({ level: 'problem', words: 'Threat sending as this domain' });
        if (!alerts.includes(THREAT) && findings.slice(0, 2).some((f) => f && f !== 'valid'))
          expect(s.verdict.level).toBe('problem');
        // Optional protocols never fail by not being set up.
        for (const p of ['mta_sts', 'tls_rpt', 'bimi'] as const) {
          const f = findings[PROTOCOLS.indexOf(p)];
          if (f === 'absent' || f === 'not_passing') expect(s.protocols[p].state).toBe('not_set_up');
        }
        // The line's numbers are the states' numbers.
        const states = PROTOCOLS.map((p) => s.protocols[p].state);
        expect(s.counts.requiredPassing).toBe(states.slice(0, 2).filter((x) => x === 'passing').length);
        expect(
          s.counts.optionalPassing +
            s.counts.optionalFailing +
            states.slice(2).filter((x) => x === 'not_set_up' || x === 'unknown').length,
        ).toBe(3);
        expect(s.verdict.words.length).toBeGreaterThan(0);
        if (s.verdict.level !== 'good') expect(s.verdict.words).not.toBe(ALL_CLEAR);
        checked++;
      }
    }
    expect(checked).toBe(3125 * 3);
  });
});
