/**
 * A recurring maintenance window on a group ("Sundays 02:00–04:00 Europe/Berlin, group Regional") holds that
 * group only, only while open, on the wall clock of its zone; an alert it held that is still open when it
 * closes is notified then, once. Closed outside its hours: alerts go at once.
 */
import { describe, expect, it } from 'vitest';
import { windowOpenUntil, type MaintenanceWindow } from '../../../../main/core/alerts/maintenanceWindows.ts';
import { openMirror } from '../../../support/openMirror.ts';
import { fakeClock, health } from '../mirror/payloads.ts';
import { disconnections, recordingOutbox, webhookChannel } from '../delivery/recordingOutbox.ts';

const REGIONAL: Omit<MaintenanceWindow, 'id'> = {
  name: 'Regional DNS maintenance',
  matchers: { group: 'Regional' },
  weekdays: [0],
  hour: 2,
  minute: 0,
  durationMinutes: 120,
  timeZone: 'Europe/Berlin',
  author: 'ops',
  createdAt: '2025-03-01T00:00:00.000Z',
};

describe('a maintenance window', () => {
  it('is open on its zone’s wall clock, across a daylight-saving change', () => {
    const w = { ...REGIONAL, id: 1 };
    // Sunday 2 March 2025 (CET, UTC+1): 02:00–04:00 Berlin is 01:00–03:00 UTC.
    expect(windowOpenUntil(w, Date.parse('2025-03-02T00:59:00Z'))).toBeNull();
    expect(windowOpenUntil(w, Date.parse('2025-03-02T01:00:00Z'))).toBe(Date.parse('2025-03-02T03:00:00Z'));
    expect(windowOpenUntil(w, Date.parse('2025-03-02T03:00:00Z'))).toBeNull();
    // Sunday 6 April 2025 (CEST, UTC+2): 00:00–02:00 UTC.
    expect(windowOpenUntil(w, Date.parse('2025-04-06T00:30:00Z'))).toBe(Date.parse('2025-04-06T02:00:00Z'));
    expect(windowOpenUntil(w, Date.parse('2025-04-05T00:30:00Z'))).toBeNull();
  });

  it('holds its group only while open, and sends what it held once when it closes', async () => {
    const clock = fakeClock('2025-03-02T00:30:00Z');
    const mirror = openMirror(':memory:', { clock });
    const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' });
    const domains = [
      { id: 100, fqdn: 'regional.example', status: 'active', group_id: 3, group_name: 'Regional' },
      { id: 101, fqdn: 'central.example', status: 'active', group_id: 4, group_name: 'Central' },
    ];
    mirror.writeSignal({
      accountId: account.id,
      domainId: null,
      signal: 'domains',
      payload: domains,
      fetchedAt: clock.now(),
    });
    const spf = (d: (typeof domains)[number], ok: boolean, at: string) =>
      mirror.writeSignal({
        accountId: account.id,
        domainId: d.id,
        signal: 'health',
        payload: { ...health(at, { spf: ok }), domain_id: d.id, fqdn: d.fqdn },
        fetchedAt: at,
      });
    for (const d of domains) spf(d, true, '2025-03-02T00:00:00Z');
    mirror.delivery.addChannel(webhookChannel('team'));
    mirror.maintenance.add(REGIONAL);
    const { sent, sender } = recordingOutbox(mirror, clock);
    const spfAlerts = () => disconnections(sent);

    clock.set('2025-03-02T01:30:00Z');
    for (const d of domains) spf(d, false, '2025-03-02T01:30:00Z');
    await sender.flush(5_000);
    expect(spfAlerts()).toEqual(['alert.raised central.example']);

    clock.set('2025-03-02T02:59:00Z');
    await sender.flush(5_000);
    expect(spfAlerts()).toEqual(['alert.raised central.example']);
    clock.set('2025-03-02T03:00:10Z');
    await sender.flush(5_000);
    clock.set('2025-03-02T03:10:00Z');
    await sender.flush(5_000);
    expect(spfAlerts()).toEqual(['alert.raised central.example', 'alert.raised regional.example']);
    mirror.close();
  });
});
