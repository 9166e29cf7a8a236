/**
 * The desktop notifier in quiet hours (createDelivery over the mirror, a recording notifier, a fake clock): a
 * critical alert notifies at once unless the user ticked "Hold critical alerts too"; then it waits, with the
 * warnings, until the hours end — nothing lost.
 */
import { describe, expect, it } from 'vitest';
import { createDelivery } from '../../../../main/core/app/notificationDelivery.ts';
import type { Alert } from '../../../../main/core/mirror/types.ts';
import { DOMAIN_ID, health, mirrorWithDomain } from '../mirror/payloads.ts';

function night(quietHoldsCriticals: boolean) {
  const { mirror, accountId, clock } = mirrorWithDomain();
  const shown: Alert[] = [];
  const deliver = createDelivery(
    mirror,
    { channel: 'native', notify: (a) => void shown.push(a) },
    () => clock.now(),
    { onDelivered: () => undefined, onSummarized: () => undefined, onFailure: () => undefined },
  );
  const write = (at: string, spf: boolean) =>
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'health',
      payload: health(at, { spf }),
      fetchedAt: at,
    });
  write('2025-03-01T20:00:00Z', true);
  mirror.setAlertSettings({
    quietHours: { startHour: 22, endHour: 7 },
    timeZone: 'UTC',
    quietHoldsCriticals,
  });
  clock.set('2025-03-01T23:00:00Z');
  write('2025-03-01T23:00:00Z', false);
  return { shown, deliver, clock };
}

describe('the desktop notifier in quiet hours', () => {
  it('shows a critical alert at once by default; warnings wait for the morning', async () => {
    const { shown, deliver, clock } = night(false);
    await deliver();
    expect(shown.map((a) => a.severity)).toEqual(['critical']);
    expect(shown[0]!.title).toBe('SPF record of example.com disconnected');
    clock.set('2025-03-02T07:00:00Z');
    await deliver();
    expect(shown.map((a) => a.severity).sort()).toEqual(['critical', 'warning', 'warning']);
  });

  it('holds criticals too when the user chose so, and shows them all when the hours end', async () => {
    const { shown, deliver, clock } = night(true);
    await deliver();
    expect(shown).toEqual([]);
    clock.set('2025-03-02T06:59:00Z');
    await deliver();
    expect(shown).toEqual([]);
    clock.set('2025-03-02T07:00:00Z');
    await deliver();
    expect(shown.map((a) => a.severity).sort()).toEqual(['critical', 'warning', 'warning']);
  });
});
