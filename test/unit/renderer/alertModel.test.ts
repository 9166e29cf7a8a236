import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../shared/bridge/results.ts';
import {
  alertState,
  counted,
  DEFAULT_ALERT_FILTER,
  detailEntries,
  episodeTimeline,
  incidentArgsFor,
  readAlertFilter,
  snoozeUntil,
} from '../../../renderer/src/lib/alertModel.ts';

const NOW = Date.parse('2026-11-24T12:00:00Z');

function alert(patch: Partial<Alert> = {}): Alert {
  return {
    id: 1,
    accountId: 1,
    rule: 'protocol_disconnected',
    severity: 'critical',
    domainId: 7,
    fqdn: 'acme.example',
    title: 'DMARC record disconnected',
    body: 'It was p=reject',
    dedupeKey: 'k',
    firstSeenAt: '2026-11-24T10:00:00Z',
    lastSeenAt: '2026-11-24T11:00:00Z',
    resolvedAt: null,
    acknowledgedAt: null,
    snoozedUntil: null,
    deliveredAt: null,
    suppressed: null,
    details: {},
    endReason: null,
    endedAt: null,
    ...patch,
  };
}

describe('alert state in words', () => {
  it('says open, acknowledged, snoozed until, muted', () => {
    expect(alertState(alert(), NOW)).toMatchObject({ key: 'open', label: 'open', tone: 'bad' });
    expect(alertState(alert({ acknowledgedAt: '2026-11-24T11:00:00Z' }), NOW).label).toBe('acknowledged');
    expect(alertState(alert({ snoozedUntil: '2026-11-24T13:00:00Z' }), NOW)).toMatchObject({
      label: 'snoozed',
      until: '2026-11-24T13:00:00Z',
    });
    // A snooze that is over no longer counts.
    expect(alertState(alert({ snoozedUntil: '2026-11-24T11:00:00Z' }), NOW).key).toBe('open');
    expect(alertState(alert({ suppressed: 'muted' }), NOW).label).toBe('muted');
  });

  it('says why an alert ended', () => {
    const resolved = (endReason: Alert['endReason']) =>
      alertState(alert({ resolvedAt: '2026-11-24T11:30:00Z', endReason }), NOW).label;
    expect(resolved('cause_ended')).toBe('ended: cause ended');
    expect(resolved('notice')).toBe('ended: notice');
    expect(resolved('acknowledged')).toBe('ended: acknowledged');
    expect(alertState(alert({ endReason: 'domain_removed' }), NOW).label).toBe('ended: domain removed');
  });
});

describe('alert filters', () => {
  // Filtering whole incidents by state, severity, rule and domain text is the engine's (incidents.test.ts).
  it('asks the bridge for what the filter says', () => {
    expect(incidentArgsFor({ ...DEFAULT_ALERT_FILTER, account: 3, rule: 'score_dropped' })).toEqual({
      accountId: 3,
      state: 'open',
      rule: 'score_dropped',
    });
    expect(incidentArgsFor({ ...DEFAULT_ALERT_FILTER, state: 'all' })).toEqual({ state: 'all' });
    expect(
      incidentArgsFor({ ...DEFAULT_ALERT_FILTER, state: 'resolved', severity: 'warning', domain: ' BETA ' }),
    ).toEqual({ state: 'resolved', severity: 'warning', domain: 'BETA' });
  });

  it('counts with the right noun', () => {
    expect(counted(1, 'open incident')).toBe('1 open incident');
    expect(counted(2, 'alert')).toBe('2 alerts');
    expect(counted(1234, 'alert')).toBe('1,234 alerts');
  });

  it('reads a stored filter and drops what is not valid', () => {
    const rules = new Set(['protocol_disconnected', 'score_dropped']);
    expect(readAlertFilter(null, rules)).toEqual(DEFAULT_ALERT_FILTER);
    expect(readAlertFilter('{not json', rules)).toEqual(DEFAULT_ALERT_FILTER);
    expect(
      readAlertFilter(
        JSON.stringify({ rule: 'drop_tables', severity: 'warning', account: -1, state: 'all', domain: 'x' }),
        rules,
      ),
    ).toEqual({ ...DEFAULT_ALERT_FILTER, severity: 'warning', state: 'all', domain: 'x' });
    expect(readAlertFilter(JSON.stringify({ rule: 'score_dropped' }), rules).rule).toBe('score_dropped');
    // Before the rules are known (the first screen loads them after the rows), a name is kept as stored.
    expect(readAlertFilter(JSON.stringify({ rule: 'score_dropped' }), null).rule).toBe('score_dropped');
    expect(readAlertFilter(JSON.stringify({ rule: 'DROP TABLE' }), null).rule).toBe('all');
  });
});

describe('episode', () => {
  it('runs raised → notified → acknowledged → resolved with what is still to come', () => {
    const steps = episodeTimeline(
      alert({
        deliveredAt: '2026-11-24T10:01:00Z',
        acknowledgedAt: '2026-11-24T10:30:00Z',
        resolvedAt: '2026-11-24T11:30:00Z',
        endReason: 'cause_ended',
      }),
    );
    expect(steps.map((s) => s.key)).toEqual(['raised', 'notified', 'acknowledged', 'resolved']);
    expect(steps.every((s) => s.done)).toBe(true);
    expect(steps.at(-1)!.label).toBe('Resolved (cause ended)');
    const open = episodeTimeline(alert());
    expect(open.filter((s) => !s.done).map((s) => s.key)).toEqual(['notified', 'acknowledged', 'resolved']);
  });

  it('lists details with words for known keys', () => {
    const entries = detailEntries({
      scoreBefore: 8.2,
      scoreNow: 6.1,
      disconnectedAt: '2026-11-24T10:00:00Z',
    });
    expect(entries.map((e) => e.label)).toEqual(['Score before', 'Score now', 'Disconnected at']);
    expect(entries[2]!.isTime).toBe(true);
  });

  it('snoozes to an ISO instant', () => {
    expect(snoozeUntil(3_600_000, NOW)).toBe('2026-11-24T13:00:00.000Z');
  });
});
