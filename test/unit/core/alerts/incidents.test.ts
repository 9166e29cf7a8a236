import { describe, expect, it } from 'vitest';
import { filterIncidents, groupIncidents, incidentTitle } from '../../../../main/core/alerts/incidents.ts';
import type { Alert } from '../../../../main/core/mirror/types.ts';
import { health, mirrorWithDomain, score, source, failedSources, write } from '../mirror/payloads.ts';

let nextId = 1;
/** An alert as the mirror lists it; only what grouping reads varies. */
function alert(over: Partial<Alert> & Pick<Alert, 'rule' | 'firstSeenAt'>): Alert {
  return {
    id: nextId++,
    accountId: 1,
    severity: 'critical',
    domainId: 10,
    fqdn: 'acme.example',
    title: `${over.rule} alert`,
    body: '',
    dedupeKey: `k${nextId}`,
    lastSeenAt: over.firstSeenAt,
    resolvedAt: null,
    acknowledgedAt: null,
    snoozedUntil: null,
    deliveredAt: null,
    suppressed: null,
    endReason: null,
    endedAt: null,
    details: {},
    ...over,
  };
}
const disconnected = (protocol: string, at: string, over: Partial<Alert> = {}) =>
  alert({
    rule: 'protocol_disconnected',
    firstSeenAt: at,
    details: { protocol, disconnectedAt: at },
    ...over,
  });

describe('incidents', () => {
  it('SPF and DMARC disconnected in one pass are one incident with both alerts, titled in words', () => {
    const spf = disconnected('spf', '2026-11-26T10:00:00Z', {
      title: 'SPF record of acme.example disconnected',
    });
    const dmarc = disconnected('dmarc', '2026-11-26T10:00:00Z');
    const [incident, ...rest] = groupIncidents([spf, dmarc]);
    expect(rest).toEqual([]);
    expect(incident!.alerts.map((a) => a.id)).toEqual([spf.id, dmarc.id]);
    expect(incident!.title).toBe('SPF and DMARC disconnected');
    expect(incident).toMatchObject({ severity: 'critical', open: true, fqdn: 'acme.example', id: spf.id });
  });

  it('the same change seen by two signals minutes apart is still one incident; hours apart it is two', () => {
    const a = disconnected('dmarc', '2026-11-26T10:00:00Z');
    const b = disconnected('spf', '2026-11-26T10:12:00Z');
    const c = disconnected('bimi', '2026-11-26T13:00:00Z', { severity: 'warning' });
    const incidents = groupIncidents([c, b, a]);
    expect(incidents.map((i) => i.alerts.map((x) => x.id))).toEqual([[a.id, b.id], [c.id]]);
  });

  it('other domains and other accounts never share an incident', () => {
    const a = disconnected('spf', '2026-11-26T10:00:00Z');
    const b = disconnected('spf', '2026-11-26T10:00:00Z', { domainId: 11, fqdn: 'other.example' });
    const c = disconnected('spf', '2026-11-26T10:00:00Z', { accountId: 2 });
    expect(groupIncidents([a, b, c])).toHaveLength(3);
  });

  it('a threat and the score drop it caused hours later are one incident, named by both', () => {
    const threat = alert({
      rule: 'threat_source_appeared',
      firstSeenAt: '2026-11-26T10:00:00Z',
      details: { sourceName: 'evil.example' },
    });
    const drop = alert({
      rule: 'score_dropped',
      severity: 'warning',
      firstSeenAt: '2026-11-26T13:00:00Z',
      details: { scoreBefore: 8.1, scoreNow: 6.9 },
    });
    const [incident, ...rest] = groupIncidents([threat, drop]);
    expect(rest).toEqual([]);
    expect(incident!.title).toBe('Registered threat evil.example sending; score dropped from 8.1 to 6.9');
    // Once the threat's episode had ended, a later drop is news of its own.
    const ended = { ...threat, resolvedAt: '2026-11-26T11:00:00Z' };
    expect(groupIncidents([ended, drop])).toHaveLength(2);
  });

  it('a threat and the score drop it caused, seen in different passes minutes apart, are one incident in either order', () => {
    const threat = (at: string) =>
      alert({ rule: 'threat_source_appeared', firstSeenAt: at, details: { sourceName: 'evil.example' } });
    const drop = (at: string) =>
      alert({
        rule: 'score_dropped',
        severity: 'warning',
        firstSeenAt: at,
        details: { scoreBefore: 8.1, scoreNow: 6.9 },
      });
    // The threat in one pass, the score derived from the next health poll 7 minutes later.
    expect(groupIncidents([threat('2026-11-26T10:00:00Z'), drop('2026-11-26T10:07:00Z')])).toHaveLength(1);
    // The drop first (the health poll comes before the failed sources), its cause 40 minutes later.
    const early = drop('2026-11-26T10:00:00Z');
    const cause = threat('2026-11-26T10:40:00Z');
    const [incident, ...rest] = groupIncidents([early, cause]);
    expect(rest).toEqual([]);
    expect(incident!.alerts.map((a) => a.id)).toEqual([cause.id, early.id]); // the critical first
    expect(incident!.title).toBe('Registered threat evil.example sending; score dropped from 8.1 to 6.9');
    // A cause hours after a lone score drop is a story of its own.
    expect(groupIncidents([drop('2026-11-26T10:00:00Z'), threat('2026-11-26T12:30:00Z')])).toHaveLength(2);
  });

  it('SPF and DMARC gone in one DNS change are one incident even when the two were seen an hour apart', () => {
    // The DNS watch saw SPF go at 10:01; the service's hourly scan told of DMARC at 11:10 — both gone at 10:00.
    const spf = disconnected('spf', '2026-11-26T10:01:00Z', {
      details: { protocol: 'spf', disconnectedAt: '2026-11-26T10:00:00Z' },
    });
    const dmarc = disconnected('dmarc', '2026-11-26T11:10:00Z', {
      details: { protocol: 'dmarc', disconnectedAt: '2026-11-26T10:00:30Z' },
    });
    const [incident, ...rest] = groupIncidents([spf, dmarc]);
    expect(rest).toEqual([]);
    expect(incident!.title).toBe('SPF and DMARC disconnected');
    // A record lost the next day is another change, another incident.
    const later = disconnected('bimi', '2026-11-27T09:00:00Z');
    expect(groupIncidents([spf, dmarc, later])).toHaveLength(2);
  });

  it('a domain that keeps alerting does not grow one endless incident: 15 min from the first alert', () => {
    const every10 = ['10:00', '10:10', '10:20', '10:30', '10:40'].map((hm, i) =>
      disconnected(['spf', 'dmarc', 'bimi', 'mta_sts', 'tls_rpt'][i]!, `2026-11-26T${hm}:00Z`, {
        details: { protocol: 'x', disconnectedAt: `2026-11-26T${hm}:00Z` },
      }),
    );
    const incidents = groupIncidents(every10);
    expect(incidents.length).toBeGreaterThan(1);
    expect(Math.max(...incidents.map((i) => i.alerts.length))).toBeLessThanOrEqual(2);
  });

  it('a repair joins the outage it ends, and a new outage after it is a new incident', () => {
    const down = disconnected('spf', '2026-11-26T09:00:00Z', { resolvedAt: '2026-11-26T11:00:00Z' });
    const up = alert({
      rule: 'protocol_restored',
      severity: 'info',
      firstSeenAt: '2026-11-26T11:00:00Z',
      resolvedAt: '2026-11-26T11:00:00Z',
      details: { protocol: 'spf', episodeId: down.id },
    });
    const again = disconnected('dmarc', '2026-11-26T11:05:00Z');
    const incidents = groupIncidents([down, up, again]);
    expect(incidents.map((i) => i.alerts.map((x) => x.id))).toEqual([[again.id], [down.id, up.id]]);
    expect(incidents[1]).toMatchObject({ open: false, title: 'SPF disconnected; SPF connected again' });
  });

  it('lists open incidents first, criticals first, and criticals first inside an incident', () => {
    const info = alert({
      rule: 'health_regressed',
      severity: 'warning',
      firstSeenAt: '2026-11-26T12:00:00Z',
    });
    const crit = disconnected('spf', '2026-11-26T12:05:00Z');
    const other = disconnected('dmarc', '2026-11-26T08:00:00Z', { domainId: 12, fqdn: 'b.example' });
    const closed = disconnected('spf', '2026-11-26T14:00:00Z', {
      domainId: 13,
      fqdn: 'c.example',
      resolvedAt: '2026-11-26T14:30:00Z',
    });
    const warn = alert({
      rule: 'score_dropped',
      severity: 'warning',
      firstSeenAt: '2026-11-26T13:00:00Z',
      domainId: 14,
      fqdn: 'd.example',
    });
    const incidents = groupIncidents([info, crit, other, closed, warn]);
    expect(incidents.map((i) => [i.fqdn, i.severity, i.open])).toEqual([
      ['acme.example', 'critical', true],
      ['b.example', 'critical', true],
      ['d.example', 'warning', true],
      ['c.example', 'critical', false],
    ]);
    expect(incidents[0]!.alerts.map((a) => a.id)).toEqual([crit.id, info.id]);
  });

  it('a single alert keeps its own title', () => {
    const a = disconnected('spf', '2026-11-26T10:00:00Z', {
      title: 'SPF record of acme.example disconnected',
    });
    expect(incidentTitle([a])).toBe('SPF record of acme.example disconnected');
  });

  it('filters whole incidents by state, rule, severity and domain', () => {
    const a = disconnected('spf', '2026-11-26T10:00:00Z');
    const b = alert({ rule: 'score_dropped', severity: 'warning', firstSeenAt: '2026-11-26T10:01:00Z' });
    const c = disconnected('dmarc', '2026-11-20T10:00:00Z', {
      domainId: 12,
      fqdn: 'b.example',
      resolvedAt: '2026-11-21T10:00:00Z',
    });
    const all = groupIncidents([a, b, c]);
    expect(filterIncidents(all, {}).map((i) => i.fqdn)).toEqual(['acme.example']);
    expect(filterIncidents(all, { state: 'resolved' }).map((i) => i.fqdn)).toEqual(['b.example']);
    expect(filterIncidents(all, { state: 'all', rule: 'score_dropped' }).map((i) => i.fqdn)).toEqual([
      'acme.example',
    ]);
    expect(filterIncidents(all, { state: 'all', severity: 'warning' })).toEqual([]);
    expect(filterIncidents(all, { state: 'all', domain: 'B.EX' }).map((i) => i.fqdn)).toEqual(['b.example']);
  });
});

describe('incidents from the mirror', () => {
  it('a health scan that loses DMARC and SPF, then the score drop, make one incident', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(mirror, accountId, 'health', health('2026-11-26T08:00:00Z'), '2026-11-26T08:01:00Z');
    // The service's score follows the interface's rule (5 of 5 passing → 10).
    write(mirror, accountId, 'security_score', score(10, '2026-11-26T08:00:00Z'), '2026-11-26T08:01:00Z');
    write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('ok.example', false)),
      '2026-11-26T08:01:00Z',
    );
    const lost = write(
      mirror,
      accountId,
      'health',
      health('2026-11-26T10:00:00Z', { dmarc: false, spf: false }, 'At Risk'),
      '2026-11-26T10:01:00Z',
    );
    // The score follows from the protocols passing (issue 21): the health poll that shows DMARC and SPF
    // lost tells the score drop too (10 → 6 by the interface's rule); the service's own score, read later,
    // confirms it.
    expect(lost.alerts.map((a) => a.rule).sort()).toEqual([
      'health_regressed',
      'protocol_disconnected',
      'protocol_disconnected',
      'score_dropped',
    ]);
    write(mirror, accountId, 'security_score', score(6, '2026-11-26T10:00:00Z'), '2026-11-26T10:31:00Z');
    const incidents = groupIncidents(mirror.listAlerts());
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.alerts.map((a) => a.rule)).toEqual([
      'protocol_disconnected',
      'protocol_disconnected',
      'health_regressed',
      'score_dropped',
    ]);
    expect(incidents[0]!.title).toBe(
      'DMARC and SPF disconnected; health regressed; score dropped from 10.0 to 6.0',
    );
  });
});
