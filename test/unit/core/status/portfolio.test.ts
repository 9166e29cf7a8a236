import { describe, expect, it } from 'vitest';
import { PROTOCOLS, type Protocol } from '../../../../main/core/signals/primitives.ts';
import {
  domainStatus as deriveStatus,
  portfolioCounts,
  trayStatus,
  type Finding,
} from '../../../../main/core/status/index.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

/** A domain's status in every rule's words, as the runtime's status model derives it. */
const domainStatus = (input: Parameters<typeof deriveStatus>[0]) => deriveStatus(input, ALERT_CATALOGUE);

const AT = '2026-06-15T10:00:00Z';
function status(findings: Partial<Record<Protocol, Finding>>, threat = false) {
  return domainStatus({
    evidence: PROTOCOLS.flatMap((p) => {
      const f = findings[p];
      return f
        ? [
            {
              protocol: p,
              finding: f,
              at: AT,
              source: 'service_scan' as const,
              ...(p === 'dmarc' ? { record: 'v=DMARC1; p=reject' } : {}),
            },
          ]
        : [];
    }),
    openAlerts: threat
      ? [{ rule: 'threat_source_appeared', severity: 'critical', title: 't', details: {} }]
      : [],
  });
}

describe('portfolio counts', () => {
  const required = { dmarc: 'valid', spf: 'valid' } as const;
  const statuses = [
    status({ ...required, mta_sts: 'valid', tls_rpt: 'valid', bimi: 'valid' }),
    status({ ...required, mta_sts: 'not_passing', tls_rpt: 'not_passing', bimi: 'not_passing' }),
    status({ ...required, bimi: 'invalid' }),
    status({ dmarc: 'valid', spf: 'absent' }),
    status({ ...required }, true),
    status({}),
  ];
  const c = portfolioCounts(statuses);

  it('every domain has one verdict: the verdict counts add up to the number of domains', () => {
    expect(c.domains).toBe(6);
    expect(c.byVerdict).toEqual({ problem: 2, warning: 1, unknown: 1, good: 2 });
    expect(Object.values(c.byVerdict).reduce((a, b) => a + b, 0)).toBe(c.domains);
  });

  it('optional protocols not set up are counted apart from failures', () => {
    expect(c.failingAny).toBe(2);
    expect(c.failing).toEqual({ dmarc: 0, spf: 1, mta_sts: 0, tls_rpt: 0, bimi: 1 });
    expect(c.notSetUp).toEqual({ dmarc: 0, spf: 0, mta_sts: 1, tls_rpt: 1, bimi: 1 });
    expect(c.optionalNotSetUpAny).toBe(1);
  });
});

describe('tray status', () => {
  const d = (fqdn: string, level: 'problem' | 'warning' | 'good' | 'unknown', words = 'x') => ({
    fqdn,
    verdict: { level, words },
  });
  it('follows the domains\' verdicts: a problem is "alerts", a warning "warnings"', () => {
    expect(trayStatus([d('a.example', 'good'), d('b.example', 'unknown')])).toEqual({
      status: 'ok',
      tooltip: 'Authwatch — no problems found on 2 domains',
    });
    expect(trayStatus([])).toEqual({ status: 'ok', tooltip: 'Authwatch — no domains yet' });
    expect(trayStatus([d('a.example', 'problem', 'SPF disconnected'), d('b.example', 'good')])).toEqual({
      status: 'alerts',
      tooltip: 'Authwatch — a.example: SPF disconnected',
    });
    expect(
      trayStatus([d('a.example', 'problem'), d('b.example', 'problem'), d('c.example', 'warning')]),
    ).toEqual({ status: 'alerts', tooltip: 'Authwatch — 2 domains with problems; 1 domain with warnings' });
    expect(trayStatus([d('c.example', 'warning', 'DMARC not enforced (p=none)')])).toEqual({
      status: 'warnings',
      tooltip: 'Authwatch — c.example: DMARC not enforced (p=none)',
    });
  });
  it('account alerts count too, and a pause is said', () => {
    expect(
      trayStatus([d('a.example', 'good')], [{ severity: 'critical', title: 'The token was refused' }]).status,
    ).toBe('alerts');
    expect(trayStatus([d('a.example', 'good')], [{ severity: 'info', title: 'n' }]).status).toBe('ok');
    expect(
      trayStatus([], [], { pausedUntil: '2026-06-15T13:00:00Z', formatTime: () => '13:00' }).tooltip,
    ).toBe('Authwatch — no domains yet; notifications paused until 13:00');
  });
});
