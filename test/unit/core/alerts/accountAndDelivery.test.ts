import { describe, expect, it } from 'vitest';
import { inQuietHours } from '../../../../main/core/alerts/quietHours.ts';
import type { SyncErrorInput } from '../../../../main/core/mirror/types.ts';
import {
  DOMAIN_ID,
  dnsEvent,
  failedSources,
  health,
  mirrorWithDomain,
  source,
  write,
} from '../mirror/payloads.ts';

const invalidToken: SyncErrorInput = {
  status: 401,
  code: 'invalid_api_token',
  message: 'Token unknown, revoked or expired.',
  requestId: '6f1c1d7e-0000-4000-8000-000000000001',
  retryable: false,
};

describe('account alerts', () => {
  it('a rejected token raises token_invalid once, however many signals fail, and a success resolves it', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const first = mirror.recordSyncError({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'health',
      error: invalidToken,
      at: '2025-03-01T10:00:00Z',
    });
    const second = mirror.recordSyncError({
      accountId,
      domainId: null,
      signal: 'domains',
      error: invalidToken,
      at: '2025-03-01T10:01:00Z',
    });
    expect(first.alerts).toHaveLength(1);
    expect(first.alerts[0]).toMatchObject({
      rule: 'token_invalid',
      severity: 'critical',
      fqdn: null,
      domainId: null,
      title: 'API token of Acme MSP is not accepted',
    });
    expect(first.alerts[0]!.body).toContain('The service said: Token unknown, revoked or expired.');
    expect(second.alerts).toEqual([]);
    const ok = write(mirror, accountId, 'health', health('2025-03-01T10:05:00Z'), '2025-03-01T10:06:00Z');
    expect(ok.resolved.map((a) => a.rule)).toEqual(['token_invalid']);
  });

  it('maps each access error of the interface to its alert; other errors raise nothing', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const cases: [Partial<SyncErrorInput>, string][] = [
      [{ status: 401, code: 'missing_api_token' }, 'token_invalid'],
      [{ status: 403, code: 'insufficient_scope', missingScope: 'domains:read' }, 'scope_missing'],
      [{ status: 403, code: 'api_plan_not_eligible' }, 'plan_not_eligible'],
      [{ status: 403, code: 'api_access_disabled' }, 'api_access_disabled'],
      [{ status: 500, code: 'internal_error' }, ''],
      [{ status: 429, code: 'http_error' }, ''],
      [{ status: 0, code: 'timeout' }, ''],
    ];
    for (const [patch, rule] of cases) {
      const r = mirror.recordSyncError({
        accountId,
        domainId: DOMAIN_ID,
        signal: 'health',
        error: { ...invalidToken, ...patch },
        at: '2025-03-01T10:00:00Z',
      });
      expect(
        r.alerts.map((a) => a.rule),
        patch.code,
      ).toEqual(rule ? [rule] : []);
    }
    expect(mirror.listAlerts({ rule: 'scope_missing' })[0]!.title).toBe(
      'API token of Acme MSP lacks the domains:read scope',
    );
  });

  it('raiseAccountAlert opens the same episode a sync error would', () => {
    const { mirror, accountId } = mirrorWithDomain();
    expect(
      mirror.raiseAccountAlert({ accountId, kind: 'plan_not_eligible', at: '2025-03-01T10:00:00Z' }).alerts,
    ).toHaveLength(1);
    const again = mirror.recordSyncError({
      accountId,
      domainId: null,
      signal: 'domains',
      error: { ...invalidToken, status: 403, code: 'api_plan_not_eligible' },
      at: '2025-03-01T10:01:00Z',
    });
    expect(again.alerts).toEqual([]);
    expect(mirror.listAlerts({ open: true })).toHaveLength(1);
  });
});

/** A mirror with one critical disconnect alert waiting to be delivered. */
function withDisconnect() {
  const m = mirrorWithDomain();
  write(m.mirror, m.accountId, 'dns_changes', [], '2025-03-01T08:00:00Z');
  const { alerts } = write(
    m.mirror,
    m.accountId,
    'dns_changes',
    [dnsEvent(5, 'dmarc', 'disconnected', '2025-03-01T09:00:00Z')],
    '2025-03-01T09:05:00Z',
  );
  return { ...m, alert: alerts[0]! };
}

describe('deliveries', () => {
  it('a new alert is pending until delivered; delivery is logged per channel and not repeated', () => {
    const { mirror, alert } = withDisconnect();
    expect(mirror.pendingDeliveries('2025-03-01T09:06:00Z').map((a) => a.id)).toEqual([alert.id]);
    mirror.markDelivered([alert.id], 'native', '2025-03-01T09:06:00Z');
    mirror.markDelivered([alert.id], 'tray', '2025-03-01T09:06:01Z');
    expect(mirror.pendingDeliveries('2025-03-01T09:07:00Z')).toEqual([]);
    expect(mirror.deliveries(alert.id)).toEqual([
      { alertId: alert.id, channel: 'native', deliveredAt: '2025-03-01T09:06:00.000Z' },
      { alertId: alert.id, channel: 'tray', deliveredAt: '2025-03-01T09:06:01.000Z' },
    ]);
    expect(mirror.getAlert(alert.id)!.deliveredAt).toBe('2025-03-01T09:06:01.000Z');
  });

  it('an acknowledged alert is not notified', () => {
    const { mirror, alert } = withDisconnect();
    mirror.acknowledgeAlerts([alert.id], '2025-03-01T09:05:30Z');
    expect(mirror.pendingDeliveries('2025-03-01T09:06:00Z')).toEqual([]);
    expect(mirror.getAlert(alert.id)).toMatchObject({
      acknowledgedAt: '2025-03-01T09:05:30.000Z',
      resolvedAt: null,
    });
  });

  it('a snoozed alert waits until the snooze ends, then reminds while it is still open', () => {
    const { mirror, alert, accountId } = withDisconnect();
    mirror.markDelivered([alert.id], 'native', '2025-03-01T09:06:00Z');
    mirror.snoozeAlert(alert.id, '2025-03-01T12:00:00Z');
    expect(mirror.pendingDeliveries('2025-03-01T11:59:00Z')).toEqual([]);
    expect(mirror.pendingDeliveries('2025-03-01T12:00:00Z').map((a) => a.id)).toEqual([alert.id]);
    mirror.markDelivered([alert.id], 'native', '2025-03-01T12:00:00Z');
    expect(mirror.pendingDeliveries('2025-03-01T12:01:00Z')).toEqual([]);

    // Snoozed again, and fixed meanwhile: no reminder about a cleared condition, only the repair notice.
    mirror.snoozeAlert(alert.id, '2025-03-01T15:00:00Z');
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(6, 'dmarc', 'connected', '2025-03-01T13:00:00Z')],
      '2025-03-01T13:05:00Z',
    );
    expect(mirror.pendingDeliveries('2025-03-01T15:00:00Z').map((a) => a.rule)).toEqual([
      'protocol_restored',
    ]);
  });

  it('a muted domain: alerts raised during the mute are recorded but never notified', () => {
    const { mirror, accountId } = mirrorWithDomain();
    mirror.muteDomain({ accountId, domainId: DOMAIN_ID, until: '2025-03-02T00:00:00Z' });
    const { alerts } = write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('phish.example', true)),
      '2025-03-01T09:00:00Z',
    );
    expect(alerts[0]!.suppressed).toBe('muted');
    expect(mirror.pendingDeliveries('2025-03-01T09:01:00Z')).toEqual([]);
    // Still not after the mute ends: muting means not wanting to hear about it.
    expect(mirror.pendingDeliveries('2025-03-02T01:00:00Z')).toEqual([]);
    expect(mirror.listAlerts({ open: true })).toHaveLength(1);
    // After the mute, new alerts notify again.
    const later = write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('other-phish.example', true)),
      '2025-03-02T09:00:00Z',
    );
    expect(later.alerts[0]!.suppressed).toBeNull();
    expect(mirror.pendingDeliveries('2025-03-02T09:01:00Z').map((a) => a.id)).toEqual([later.alerts[0]!.id]);
  });

  it('muting a domain holds its undelivered alerts; unmuting releases them; other domains are unaffected', () => {
    const { mirror, alert, accountId } = withDisconnect();
    mirror.muteDomain({ accountId, domainId: DOMAIN_ID, until: null });
    const other = mirror.writeSignal({
      accountId,
      domainId: 4212,
      signal: 'failed_sources',
      fetchedAt: '2025-03-01T09:10:00Z',
      payload: { domain_id: 4212, fqdn: 'example.org', failed_sources: [source('phish.example', true)] },
    });
    expect(mirror.pendingDeliveries('2025-03-01T09:11:00Z').map((a) => a.id)).toEqual([other.alerts[0]!.id]);
    expect(mirror.domainDetail(accountId, DOMAIN_ID)!.muted).toEqual({ until: null });
    mirror.unmuteDomain(accountId, DOMAIN_ID);
    expect(mirror.pendingDeliveries('2025-03-01T09:12:00Z').map((a) => a.id)).toEqual([
      alert.id,
      other.alerts[0]!.id,
    ]);
  });

  it('quiet hours chosen to hold criticals too hold every notification and release them, none lost, when they end', () => {
    const { mirror, alert, accountId } = withDisconnect();
    mirror.setAlertSettings({
      quietHours: { startHour: 22, endHour: 7 },
      timeZone: 'Europe/Paris',
      quietHoldsCriticals: true,
    });
    // 22:30 UTC = 23:30 in Paris (winter, UTC+1): quiet.
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(7, 'spf', 'disconnected', '2025-03-01T22:20:00Z')],
      '2025-03-01T22:25:00Z',
    );
    expect(mirror.pendingDeliveries('2025-03-01T22:30:00Z')).toEqual([]);
    expect(mirror.pendingDeliveries('2025-03-02T05:59:00Z')).toEqual([]); // 06:59 Paris
    const morning = mirror.pendingDeliveries('2025-03-02T06:00:00Z'); // 07:00 Paris
    expect(morning.map((a) => a.title)).toEqual([alert.title, 'SPF record of example.com disconnected']);
  });

  it('rejects invalid alert settings with a typed error and keeps the old ones', () => {
    const { mirror } = mirrorWithDomain();
    expect(() => mirror.setAlertSettings({ quietHours: { startHour: 25, endHour: 7 } })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
    expect(() => mirror.setAlertSettings({ timeZone: 'Mars/Olympus' })).toThrow(/time zone/);
    expect(() => mirror.setAlertSettings({ scoreStep: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
    expect(() => mirror.setAlertSettings({ editSilenceMinutes: 1_441 })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
    expect(mirror.getAlertSettings()).toEqual({
      scoreStep: 1,
      scoreFloor: 5,
      quietHours: null,
      timeZone: null,
      quietHoldsCriticals: false,
      editSilenceMinutes: 30,
    });
  });

  it('quiet hours never hold a critical alert unless the user chose so; warnings wait until they end', () => {
    const { mirror, alert, accountId } = withDisconnect();
    mirror.markDelivered([alert.id], 'native', '2025-03-01T09:06:00Z');
    mirror.setAlertSettings({ quietHours: { startHour: 22, endHour: 7 }, timeZone: 'UTC' });
    const critical = write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(7, 'spf', 'disconnected', '2025-03-01T22:20:00Z')],
      '2025-03-01T22:25:00Z',
    ).alerts[0]!;
    expect(critical.severity).toBe('critical');
    expect(mirror.pendingDeliveries('2025-03-01T22:30:00Z').map((a) => a.id)).toEqual([critical.id]);
  });
});

describe('quiet hours window', () => {
  const at = (iso: string) => Date.parse(iso);
  it('handles windows that wrap midnight, same-day windows and an empty window', () => {
    const night = { startHour: 22, endHour: 7 };
    expect(inQuietHours(at('2025-03-01T22:00:00Z'), night, 'UTC')).toBe(true);
    expect(inQuietHours(at('2025-03-01T03:00:00Z'), night, 'UTC')).toBe(true);
    expect(inQuietHours(at('2025-03-01T07:00:00Z'), night, 'UTC')).toBe(false);
    expect(inQuietHours(at('2025-03-01T21:59:00Z'), night, 'UTC')).toBe(false);
    const lunch = { startHour: 12, endHour: 14 };
    expect(inQuietHours(at('2025-03-01T13:30:00Z'), lunch, 'UTC')).toBe(true);
    expect(inQuietHours(at('2025-03-01T14:00:00Z'), lunch, 'UTC')).toBe(false);
    expect(inQuietHours(at('2025-03-01T13:30:00Z'), { startHour: 9, endHour: 9 }, 'UTC')).toBe(false);
    expect(inQuietHours(at('2025-03-01T13:30:00Z'), null, 'UTC')).toBe(false);
    // Local time: 05:30 UTC is 14:30 in Tokyo.
    expect(inQuietHours(at('2025-03-01T05:30:00Z'), { startHour: 14, endHour: 15 }, 'Asia/Tokyo')).toBe(true);
  });
});
