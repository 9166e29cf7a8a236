import { describe, expect, it } from 'vitest';
import { recordChangeOf, withRecordChanges } from '../../../../main/core/alerts/recordChange.ts';
import type { Alert } from '../../../../main/core/mirror/types.ts';
import { dnsEvent, health, mirrorWithDomain, write } from '../mirror/payloads.ts';

const SPF = 'v=spf1 include:_spf.google.com -all';

function alert(rule: Alert['rule'], details: Alert['details'], at: string): Alert {
  return {
    id: 1,
    accountId: 1,
    rule,
    severity: 'critical',
    domainId: 10,
    fqdn: 'acme.example',
    title: '',
    body: '',
    dedupeKey: 'k',
    firstSeenAt: at,
    lastSeenAt: at,
    resolvedAt: null,
    acknowledgedAt: null,
    snoozedUntil: null,
    deliveredAt: null,
    suppressed: null,
    endReason: null,
    endedAt: null,
    details,
  };
}

describe('a DNS alert’s record before and after', () => {
  const down = alert(
    'protocol_disconnected',
    { protocol: 'spf', disconnectedAt: '2026-11-26T10:00:00Z' },
    '2026-11-26T10:05:00Z',
  );

  it('a disconnection: the last record seen before it, then none', () => {
    const change = recordChangeOf(down, [
      { at: '2026-11-01T00:00:00Z', value: 'v=spf1 -all' },
      { at: '2026-11-20T00:00:00Z', value: SPF },
      { at: '2026-11-26T10:00:00Z', value: null },
      // A scan that found nothing may say so with an empty text.
      { at: '2026-11-26T10:01:00Z', value: '' },
    ]);
    expect(change).toEqual({
      protocol: 'spf',
      before: { kind: 'record', value: SPF },
      after: { kind: 'none' },
    });
  });

  it('says "not known" when the app never saw the record, and a broken replacement as the record', () => {
    expect(recordChangeOf(down, [])!.before).toEqual({ kind: 'unknown' });
    const replaced = recordChangeOf({ ...down, lastSeenAt: '2026-11-26T11:00:00Z' }, [
      { at: '2026-11-20T00:00:00Z', value: SPF },
      { at: '2026-11-26T10:30:00Z', value: 'v=spf1 include:a include:b ?all broken' },
    ]);
    expect(replaced!.after).toEqual({ kind: 'record', value: 'v=spf1 include:a include:b ?all broken' });
  });

  it('a repair: none before, the record seen at the repair after', () => {
    const up = alert(
      'protocol_restored',
      { protocol: 'spf', disconnectedAt: '2026-11-26T10:00:00Z', restoredAt: '2026-11-26T12:00:00Z' },
      '2026-11-26T12:01:00Z',
    );
    expect(
      recordChangeOf(up, [
        { at: '2026-11-20T00:00:00Z', value: 'v=spf1 -all' },
        { at: '2026-11-26T12:00:00Z', value: SPF },
      ]),
    ).toEqual({ protocol: 'spf', before: { kind: 'none' }, after: { kind: 'record', value: SPF } });
  });

  it('other alerts have no record change', () => {
    expect(recordChangeOf(alert('score_dropped', {}, '2026-11-26T10:00:00Z'), [])).toBeNull();
  });

  it('reads the mirror: DNS events and health scans give DMARC and SPF before and after', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(1, 'spf', 'connected', '2026-11-01T00:00:00Z')],
      '2026-11-26T08:00:00Z',
    );
    write(mirror, accountId, 'health', health('2026-11-26T08:00:00Z'), '2026-11-26T08:01:00Z');
    write(
      mirror,
      accountId,
      'health',
      health('2026-11-26T10:00:00Z', { dmarc: false, spf: false }),
      '2026-11-26T10:01:00Z',
    );
    const alerts = mirror.listAlerts({ rule: 'protocol_disconnected' });
    const [incident] = withRecordChanges([{ alerts }], (a, protocol) =>
      mirror.recordObservations(a.accountId, a.domainId!, protocol),
    );
    const byProtocol = Object.fromEntries(
      incident!.alerts.map((a) => [a.recordChange!.protocol, a.recordChange]),
    );
    expect(byProtocol.spf).toEqual({
      protocol: 'spf',
      before: { kind: 'record', value: SPF },
      after: { kind: 'none' },
    });
    expect(byProtocol.dmarc).toEqual({
      protocol: 'dmarc',
      before: { kind: 'record', value: 'v=DMARC1; p=reject; rua=mailto:dmarc@example.com' },
      after: { kind: 'none' },
    });
  });
});
