import { describe, expect, it } from 'vitest';
import { MirrorError } from '../../../../main/core/mirror/mirrorError.ts';
import {
  DOMAIN_ID,
  FQDN,
  dnsEvent,
  failedSources,
  health,
  mirrorWithDomain,
  score,
  source,
  write,
} from './payloads.ts';

import type { AlertRules } from '../../../../main/core/alerts/ruleSet.ts';
import { healthRegressed } from '../../../../main/core/alerts/rules/healthRegressed.ts';

// Throws once there is a previous snapshot to compare with (the first write is a baseline).
const boom: AlertRules['healthRegressed'] = (previous) => {
  if (previous) throw new Error('rule exploded');
  return [];
};

// A rule whose event the database refuses (bad severity) after the other rules' alerts were inserted.
const badEvent: AlertRules['healthRegressed'] = (previous, next, ctx) =>
  healthRegressed(previous, next, ctx).map((e) =>
    e.type === 'raise' ? { ...e, severity: 'loud' as never } : e,
  );

/** healthRegressed raising a count as text: not what its rule file declares. */
const undeclaredDetails: AlertRules[string] = (previous, next, ctx) =>
  healthRegressed(previous, next, ctx).map((e) =>
    e.type === 'raise' ? { ...e, details: { ...e.details, passingNow: 'four' } } : e,
  );

describe('writeSignal is one transaction', () => {
  it('a rule that throws rolls back the snapshot rows, the sync state and the alerts', () => {
    const { mirror, accountId } = mirrorWithDomain(':memory:', { rules: { healthRegressed: boom } });
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    const before = {
      history: mirror.history('health', { accountId, domainId: DOMAIN_ID }),
      states: mirror.getSyncStates(accountId),
      alerts: mirror.listAlerts(),
    };
    // protocolDisconnected runs (and would raise) before healthRegressed throws.
    expect(() =>
      write(
        mirror,
        accountId,
        'health',
        health('2025-03-01T09:15:00Z', { spf: false }),
        '2025-03-01T09:16:00Z',
      ),
    ).toThrow('rule exploded');
    expect(mirror.history('health', { accountId, domainId: DOMAIN_ID })).toEqual(before.history);
    expect(mirror.getSyncStates(accountId)).toEqual(before.states);
    expect(mirror.listAlerts()).toEqual(before.alerts);
    expect(mirror.overview(accountId)[0]!.health!.protocols.spf).toBe(true);
  });

  it('an alert row the database refuses rolls back the alerts already inserted in the same write', () => {
    const { mirror, accountId } = mirrorWithDomain(':memory:', { rules: { healthRegressed: badEvent } });
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    // protocol_disconnected is inserted first, then the health_regressed insert violates the CHECK.
    expect(() =>
      write(
        mirror,
        accountId,
        'health',
        health('2025-03-01T09:15:00Z', { spf: false }),
        '2025-03-01T09:16:00Z',
      ),
    ).toThrow(/CHECK/);
    expect(mirror.listAlerts()).toEqual([]);
    expect(mirror.history('health', { accountId, domainId: DOMAIN_ID })).toHaveLength(1);
    expect(mirror.getSyncStates(accountId).find((s) => s.signal === 'health')!.lastSuccessAt).toBe(
      '2025-03-01T09:01:00.000Z',
    );
  });

  it('an alert whose details are not what its rule file declares is refused, naming the rule and the field', () => {
    const { mirror, accountId } = mirrorWithDomain(':memory:', {
      rules: { healthRegressed: undeclaredDetails },
    });
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    const next = health('2025-03-01T09:15:00Z', { spf: false });
    expect(() => write(mirror, accountId, 'health', next, '2025-03-01T09:16:00Z')).toThrow(
      /alert health_regressed: details\.passingNow: /,
    );
    expect(mirror.listAlerts()).toEqual([]);
    // The rule as written raises what it declares.
    const { mirror: real, accountId: id } = mirrorWithDomain();
    write(real, id, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    write(real, id, 'health', next, '2025-03-01T09:16:00Z');
    expect(real.listAlerts({ rule: 'health_regressed' })[0]?.details).toMatchObject({ passingNow: 4 });
  });

  it('a success clears the last error, resets failures and schedules the next fetch one period later', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const error = {
      status: 503,
      code: 'score_unavailable',
      message: 'try later',
      requestId: 'req-1',
      retryable: true,
    };
    mirror.recordSyncError({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'security_score',
      error,
      at: '2025-03-01T09:00:00Z',
    });
    mirror.recordSyncError({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'security_score',
      error,
      at: '2025-03-01T09:05:00Z',
    });
    let state = mirror.getSyncStates(accountId).find((s) => s.signal === 'security_score')!;
    expect(state).toMatchObject({
      consecutiveFailures: 2,
      lastSuccessAt: null,
      domainId: DOMAIN_ID,
      fqdn: FQDN,
    });
    expect(state.lastError).toMatchObject({
      code: 'score_unavailable',
      status: 503,
      requestId: 'req-1',
      retryable: true,
    });

    write(mirror, accountId, 'security_score', score(9, '2025-03-01T09:09:00Z'), '2025-03-01T09:10:00Z');
    state = mirror.getSyncStates(accountId).find((s) => s.signal === 'security_score')!;
    expect(state).toMatchObject({
      consecutiveFailures: 0,
      lastError: null,
      lastSuccessAt: '2025-03-01T09:10:00.000Z',
      nextDueAt: '2025-03-01T10:10:00.000Z', // security_score: 60 minutes
      periodSeconds: 3600,
    });
  });
});

describe('recordSyncError', () => {
  it('keeps the last good data untouched and shows the error beside it', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T09:00:00Z', { bimi: false }),
      '2025-03-01T09:01:00Z',
    );
    write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('mail.example.net', false)),
      '2025-03-01T09:02:00Z',
    );
    const detailBefore = mirror.domainDetail(accountId, DOMAIN_ID)!;

    for (const signal of ['health', 'failed_sources'] as const) {
      mirror.recordSyncError({
        accountId,
        domainId: DOMAIN_ID,
        signal,
        error: {
          status: 0,
          code: 'malformed_response',
          message: 'HTML instead of JSON',
          requestId: 'r-2',
          retryable: true,
        },
        at: '2025-03-01T09:20:00Z',
        nextDueAt: '2025-03-01T09:21:00Z',
      });
    }
    const detail = mirror.domainDetail(accountId, DOMAIN_ID)!;
    expect(detail.health).toEqual(detailBefore.health);
    expect(detail.failedSources).toEqual(detailBefore.failedSources);
    const row = mirror.overview(accountId).find((r) => r.domainId === DOMAIN_ID)!;
    expect(row.health).toMatchObject({ passing: 4, protocols: { bimi: false } });
    expect(row.data.health).toMatchObject({ lastSuccessAt: '2025-03-01T09:01:00.000Z' });
    expect(row.lastError).toMatchObject({ code: 'malformed_response', message: 'HTML instead of JSON' });
    expect(mirror.getSyncStates(accountId).find((s) => s.signal === 'health')).toMatchObject({
      nextDueAt: '2025-03-01T09:21:00.000Z',
      lastAttemptAt: '2025-03-01T09:20:00.000Z',
      consecutiveFailures: 1,
    });
    // A plain failure is not an account alert.
    expect(mirror.listAlerts()).toEqual([]);
  });

  it('refuses an unknown account or domain with a typed error', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const error = { status: 500, code: 'internal_error', message: 'x', requestId: 'r', retryable: true };
    expect(() =>
      mirror.recordSyncError({ accountId: 999, domainId: null, signal: 'domains', error, at: 0 }),
    ).toThrow(MirrorError);
    try {
      mirror.recordSyncError({ accountId, domainId: 1, signal: 'health', error, at: 0 });
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ name: 'MirrorError', code: 'unknown_domain' });
    }
  });
});

describe('domains list', () => {
  it('marks a vanished domain removed, keeps its history and its open alerts, and revives both when it comes back', () => {
    const { mirror, accountId, clock } = mirrorWithDomain();
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toEqual(['example.com', 'example.org']);
    write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T09:15:00Z', { spf: false }),
      '2025-03-01T09:16:00Z',
    );
    const open = mirror.listAlerts({ open: true });
    expect(open.length).toBeGreaterThan(0);
    const removal = mirror.writeSignal({
      accountId,
      domainId: null,
      signal: 'domains',
      payload: [{ id: 4212, fqdn: 'example.org' }],
      fetchedAt: clock.now(),
    });
    // A domain missing from the list is no evidence that its problems ended (issue 12 item 2): its alerts
    // stay unresolved, marked as about a removed domain.
    expect(removal.resolved).toEqual([]);
    expect(mirror.listAlerts({ open: true }).map((a) => [a.id, a.endReason])).toEqual(
      open.map((a) => [a.id, 'domain_removed']),
    );
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toEqual(['example.org']);
    expect(mirror.overview(accountId).map((r) => r.fqdn)).toEqual(['example.org']);
    expect(mirror.listDomains(accountId, { includeRemoved: true })[0]).toMatchObject({
      fqdn: FQDN,
      removedAt: expect.any(String),
    });
    expect(mirror.history('health', { accountId, domainId: DOMAIN_ID })).toHaveLength(2);
    mirror.writeSignal({
      accountId,
      domainId: null,
      signal: 'domains',
      payload: [{ id: DOMAIN_ID, fqdn: FQDN }],
      fetchedAt: clock.now(),
    });
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toEqual([FQDN]);
    // Back with the same id: the same episodes go on.
    expect(mirror.listAlerts({ open: true }).map((a) => [a.id, a.endReason])).toEqual(
      open.map((a) => [a.id, null]),
    );
  });

  it('learns a domain from a per-domain payload that names it, and refuses one that does not', () => {
    const { mirror, accountId } = mirrorWithDomain();
    mirror.writeSignal({
      accountId,
      domainId: 77,
      signal: 'security_score',
      payload: { ...score(8, '2025-03-01T09:00:00Z'), domain_id: 77, fqdn: 'new.example' },
      fetchedAt: 0,
    });
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toContain('new.example');
    expect(() =>
      mirror.writeSignal({ accountId, domainId: 78, signal: 'dns_changes', payload: [], fetchedAt: 0 }),
    ).toThrow(/no domain 78/);
  });
});

describe('every signal is stored and read back', () => {
  it('health history, score history, mail volume and DNS events come back oldest first, deduplicated', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'health_history',
      [
        {
          id: 3,
          result: 'Protected',
          protocols: { dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: true },
          protocols_passing: 5,
          total_protocols: 5,
          scanned_at: '2025-02-03T00:00:00Z',
        },
        {
          id: 2,
          result: 'Protected',
          protocols: { dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: false },
          protocols_passing: 4,
          total_protocols: 5,
          scanned_at: '2025-02-02T00:00:00Z',
        },
      ],
      '2025-03-01T09:00:00Z',
    );
    // A page fetched twice (overlap) adds nothing.
    write(
      mirror,
      accountId,
      'health_history',
      [
        {
          id: 2,
          result: 'Protected',
          protocols: { dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: false },
          protocols_passing: 4,
          total_protocols: 5,
          scanned_at: '2025-02-02T00:00:00Z',
        },
      ],
      '2025-03-01T09:05:00Z',
    );
    expect(
      mirror.history('health', { accountId, domainId: DOMAIN_ID }).map((p) => [p.at, p.passing]),
    ).toEqual([
      ['2025-02-02T00:00:00.000Z', 4],
      ['2025-02-03T00:00:00.000Z', 5],
    ]);

    write(
      mirror,
      accountId,
      'score_history',
      {
        domain_id: DOMAIN_ID,
        fqdn: FQDN,
        max_score: 10,
        note: 'derived_score = protocols_passing / 5 x 10',
        history: [
          {
            derived_score: 8,
            protocols_passing: 4,
            total_protocols: 5,
            result: 'Protected',
            scanned_at: '2025-02-02T00:00:00Z',
          },
          {
            derived_score: 10,
            protocols_passing: 5,
            total_protocols: 5,
            result: 'Protected',
            scanned_at: '2025-02-03T00:00:00Z',
          },
        ],
      },
      '2025-03-01T09:00:00Z',
    );
    write(mirror, accountId, 'security_score', score(9.4, '2025-02-04T00:00:00Z'), '2025-03-01T09:00:00Z');
    expect(mirror.history('score', { accountId, domainId: DOMAIN_ID })).toEqual([
      { at: '2025-02-02T00:00:00.000Z', score: 8, kind: 'derived' },
      { at: '2025-02-03T00:00:00.000Z', score: 10, kind: 'derived' },
      { at: '2025-02-04T00:00:00.000Z', score: 9.4, kind: 'measured' },
    ]);
    expect(mirror.history('score', { accountId, domainId: DOMAIN_ID, limit: 1 })).toHaveLength(1);
    expect(
      mirror.history('score', { accountId, domainId: DOMAIN_ID, since: '2025-02-03T00:00:00Z' }),
    ).toHaveLength(2);

    const day = (date: string, total: number) => ({
      date,
      total,
      delivered: total - 2,
      quarantined: 1,
      rejected: 1,
      dmarc_pass: total - 3,
      dmarc_fail: 3,
    });
    write(
      mirror,
      accountId,
      'mail_volume',
      {
        domain_id: DOMAIN_ID,
        fqdn: FQDN,
        start_date: '2025-02-01',
        end_date: '2025-02-02',
        totals: { total: 300, delivered: 296, quarantined: 2, rejected: 2, dmarc_pass: 294, dmarc_fail: 6 },
        timeline: [day('2025-02-01', 100), day('2025-02-02', 200)],
      },
      '2025-03-01T09:00:00Z',
    );
    // A later fetch revises a day (late reports) and adds one.
    write(
      mirror,
      accountId,
      'mail_volume',
      { timeline: [day('2025-02-02', 250), day('2025-02-03', 50)] },
      '2025-03-02T09:00:00Z',
    );
    expect(
      mirror
        .history('mail_volume', { accountId, domainId: DOMAIN_ID })
        .map((d) => [d.date, d.total, d.dmarcFail]),
    ).toEqual([
      ['2025-02-01', 100, 3],
      ['2025-02-02', 250, 3],
      ['2025-02-03', 50, 3],
    ]);
    expect(
      mirror.history('mail_volume', {
        accountId,
        domainId: DOMAIN_ID,
        since: '2025-02-02T00:00:00Z',
        until: '2025-02-02T23:00:00Z',
      }),
    ).toHaveLength(1);
    expect(mirror.lastSeen(accountId, 'mail_volume', DOMAIN_ID)).toBe('2025-02-03');

    write(
      mirror,
      accountId,
      'dns_changes',
      [
        dnsEvent(11, 'spf', 'disconnected', '2025-02-10T08:00:00Z'),
        dnsEvent(12, 'spf', 'connected', '2025-02-10T09:00:00Z'),
      ],
      '2025-03-01T09:00:00Z',
    );
    write(
      mirror,
      accountId,
      'dns_timeline',
      {
        domain_id: DOMAIN_ID,
        fqdn: FQDN,
        summary: {
          spf: {
            current_status: 'connected',
            last_connected: '2025-02-10T09:00:00Z',
            last_disconnected: '2025-02-10T08:00:00Z',
            connection_count: 3,
            disconnection_count: 1,
          },
        },
        events: [
          dnsEvent(12, 'spf', 'connected', '2025-02-10T09:00:00Z'),
          dnsEvent(13, 'dmarc', 'connected', '2025-02-11T09:00:00Z'),
        ],
      },
      '2025-03-01T09:05:00Z',
    );
    expect(mirror.history('dns_events', { accountId, domainId: DOMAIN_ID }).map((e) => e.eventId)).toEqual([
      11, 12, 13,
    ]);
    expect(mirror.lastSeen(accountId, 'dns_changes', DOMAIN_ID)).toBe('2025-02-11T09:00:00.000Z');
    expect(mirror.domainDetail(accountId, DOMAIN_ID)!.dnsSummary.spf).toMatchObject({ connection_count: 3 });
  });

  it('the domain detail holds current DNS, sources by window, TLS-RPT, dashboard cache and unknown fields', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'dns_current',
      {
        domain_id: DOMAIN_ID,
        fqdn: FQDN,
        protocols: {
          spf: {
            current_status: 'connected',
            verified: true,
            status: 'valid',
            last_connected: '2025-02-01T00:00:00Z',
            last_disconnected: null,
            record_value: 'v=spf1 -all',
            lookup_count: 3,
          },
          dmarc: {
            current_status: 'connected',
            verified: true,
            status: 'valid',
            last_connected: null,
            last_disconnected: null,
            record_value: 'v=DMARC1; p=none',
            future_flag: 'kept',
          },
        },
      },
      '2025-03-01T09:00:00Z',
    );
    write(
      mirror,
      accountId,
      'dns_current',
      { protocols: { spf: { current_status: 'disconnected', record_value: null } } },
      '2025-03-01T10:00:00Z',
    );
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'sending_services',
      payload: { domain_id: DOMAIN_ID, fqdn: FQDN, services: [source('Google', false, 900)] },
      fetchedAt: '2025-03-01T09:00:00Z',
      window: { start: '2025-02-01', end: '2025-03-01' },
    });
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'failed_sources',
      payload: failedSources(),
      fetchedAt: '2025-03-01T09:00:00Z',
      window: { start: '2025-02-01', end: '2025-03-01' },
    });
    write(
      mirror,
      accountId,
      'tls_rpt',
      {
        config: { record_value: 'v=TLSRPTv1; rua=mailto:tls@example.com', total_reports: 12 },
        failures: { total_success: 990, total_failure: 10 },
      },
      '2025-03-01T09:00:00Z',
    );
    write(
      mirror,
      accountId,
      'dashboard_cache',
      {
        domain_id: DOMAIN_ID,
        fqdn: FQDN,
        cached: true,
        cached_at: '2025-03-01T08:00:00Z',
        start_date: '2025-02-01',
        end_date: '2025-03-01',
        data: { widgets: [1, 2] },
      },
      '2025-03-01T09:00:00Z',
    );
    write(
      mirror,
      accountId,
      'dns_snapshots',
      {
        dmarc: [{ id: 1, record_value: 'v=DMARC1; p=none', occurred_at: '2025-01-01T00:00:00Z' }],
        spf: [{ id: 1, record_value: 'v=spf1 -all', occurred_at: '2025-01-02T00:00:00Z', lookup_count: 1 }],
      },
      '2025-03-01T09:00:00Z',
    );
    write(
      mirror,
      accountId,
      'dns_history',
      [
        {
          record_type: 'spf',
          record_value: 'v=spf1 -all',
          occurred_at: '2025-01-02T00:00:00Z',
          lookup_count: 1,
        },
        { record_type: 'dmarc', record_value: null, occurred_at: '2025-01-03T00:00:00Z' },
      ],
      '2025-03-01T09:00:00Z',
    );

    const d = mirror.domainDetail(accountId, DOMAIN_ID)!;
    // dns_current is a complete map: the second answer replaced the first.
    expect(Object.keys(d.dnsCurrent)).toEqual(['spf']);
    expect(d.dnsCurrent.spf).toMatchObject({ current_status: 'disconnected' });
    expect(d.sendingServices).toMatchObject({
      window: { start: '2025-02-01', end: '2025-03-01' },
      sources: [{ source_name: 'Google', total_count: 900 }],
    });
    expect(d.failedSources).toMatchObject({ sources: [] });
    expect(d.tlsRpt).toMatchObject({ config: { total_reports: 12 }, failures: { total_failure: 10 } });
    expect(d.dashboardCache).toMatchObject({ cached: true, data: { widgets: [1, 2] } });
    expect(mirror.lastSeen(accountId, 'dns_snapshots', DOMAIN_ID)).toBe('2025-01-02T00:00:00.000Z');
    expect(mirror.lastSeen(accountId, 'dns_history', DOMAIN_ID)).toBe('2025-01-03T00:00:00.000Z');
    expect(mirror.lastSeen(accountId, 'tls_rpt', DOMAIN_ID)).toBe('2025-03-01T09:00:00.000Z');
    expect(mirror.lastSeen(accountId, 'health', DOMAIN_ID)).toBeNull();
    expect(new Set(d.syncStates.map((s) => s.signal))).toEqual(
      new Set([
        'dns_current',
        'sending_services',
        'failed_sources',
        'tls_rpt',
        'dashboard_cache',
        'dns_snapshots',
        'dns_history',
      ]),
    );
  });

  it('keeps fields the interface does not name in what it hands back', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'health',
      { ...health('2025-03-01T09:00:00Z'), guard_version: 'g-17' },
      '2025-03-01T09:01:00Z',
    );
    expect(mirror.domainDetail(accountId, DOMAIN_ID)!.health).toMatchObject({ guard_version: 'g-17' });
  });
});

describe('accounts', () => {
  it('upsert by label updates the base URL, a rename to a taken label is refused', () => {
    const { mirror, account } = mirrorWithDomain();
    const again = mirror.upsertAccount({ label: 'Acme MSP', baseUrl: 'https://eu.example.net/v1' });
    expect(again.id).toBe(account.id);
    expect(mirror.listAccounts()).toHaveLength(1);
    expect(mirror.listAccounts()[0]!.baseUrl).toBe('https://eu.example.net/v1');
    const other = mirror.upsertAccount({ label: 'Other', baseUrl: 'https://o/api/v1' });
    expect(() => mirror.upsertAccount({ id: other.id, label: 'Acme MSP', baseUrl: 'x' })).toThrow(
      expect.objectContaining({ code: 'label_taken' }),
    );
    expect(() => mirror.upsertAccount({ label: '  ', baseUrl: 'x' })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
    mirror.setAccountPaused(other.id, 'token_invalid');
    expect(mirror.listAccounts().find((a) => a.id === other.id)!.pausedReason).toBe('token_invalid');
    mirror.setAccountPaused(other.id, null);
    expect(mirror.listAccounts().find((a) => a.id === other.id)!.pausedReason).toBeNull();
  });

  it('setNextDue moves a signal’s due time and period', () => {
    const { mirror, accountId } = mirrorWithDomain();
    mirror.setNextDue({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'mail_volume',
      nextDueAt: '2025-03-01T12:00:00Z',
      periodSeconds: 600,
    });
    expect(mirror.getSyncStates(accountId).find((s) => s.signal === 'mail_volume')).toMatchObject({
      nextDueAt: '2025-03-01T12:00:00.000Z',
      periodSeconds: 600,
      lastSuccessAt: null,
    });
  });
});
