import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMirror } from '../../../support/openMirror.ts';
import { DOMAIN_ID, dnsEvent, health, mirrorWithDomain, write } from '../mirror/payloads.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-alerts-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A mirror whose DNS feed and health already have a baseline (all connected). */
function baseline(file = ':memory:') {
  const m = mirrorWithDomain(file);
  write(
    m.mirror,
    m.accountId,
    'dns_changes',
    [dnsEvent(100, 'spf', 'connected', '2025-02-01T00:00:00Z')],
    '2025-03-01T08:00:00Z',
  );
  write(m.mirror, m.accountId, 'health', health('2025-03-01T08:00:00Z'), '2025-03-01T08:01:00Z');
  return m;
}

describe('protocol_disconnected', () => {
  it('the first fetch of the DNS feed is a baseline: a month of old events raises nothing', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const result = write(
      mirror,
      accountId,
      'dns_changes',
      [
        dnsEvent(1, 'dmarc', 'disconnected', '2025-02-01T00:00:00Z'),
        dnsEvent(2, 'bimi', 'disconnected', '2025-02-05T00:00:00Z'),
      ],
      '2025-03-01T08:00:00Z',
    );
    expect(result.alerts).toEqual([]);
    expect(mirror.listAlerts()).toEqual([]);
  });

  it('a new disconnected DNS event raises one critical alert with a plain-words title', () => {
    const { mirror, accountId } = baseline();
    const { alerts } = write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T08:35:00Z',
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      rule: 'protocol_disconnected',
      severity: 'critical',
      fqdn: 'example.com',
      domainId: DOMAIN_ID,
      title: 'SPF record of example.com disconnected',
      dedupeKey: `protocol_disconnected:${accountId}:example.com:spf`,
      resolvedAt: null,
    });
  });

  it('one episode whichever signal sees it first: DNS then health, or health then DNS', () => {
    const { mirror, accountId } = baseline();
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T08:35:00Z',
    );
    const fromHealth = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:45:00Z', { spf: false }),
      '2025-03-01T08:46:00Z',
    );
    expect(fromHealth.alerts.filter((a) => a.rule === 'protocol_disconnected')).toEqual([]);
    // The same event fetched again by the timeline (overlapping feeds) is no news either.
    const again = write(
      mirror,
      accountId,
      'dns_timeline',
      { events: [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')] },
      '2025-03-01T08:50:00Z',
    );
    expect(again.alerts).toEqual([]);
    const open = mirror.listAlerts({ rule: 'protocol_disconnected', open: true });
    expect(open).toHaveLength(1);
    expect(open[0]!.lastSeenAt).toBe('2025-03-01T08:46:00.000Z');

    const other = baseline();
    const first = write(
      other.mirror,
      other.accountId,
      'health',
      health('2025-03-01T08:45:00Z', { dmarc: false }),
      '2025-03-01T08:46:00Z',
    );
    expect(first.alerts.map((a) => a.title)).toContain('DMARC record of example.com disconnected');
    const dns = write(
      other.mirror,
      other.accountId,
      'dns_changes',
      [dnsEvent(102, 'dmarc', 'disconnected', '2025-03-01T08:44:00Z')],
      '2025-03-01T08:50:00Z',
    );
    expect(dns.alerts).toEqual([]);
    expect(other.mirror.listAlerts({ rule: 'protocol_disconnected' })).toHaveLength(1);
  });

  it('a health scan older than a connected DNS event does not raise (stale scan)', () => {
    const { mirror, accountId } = baseline();
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'connected', '2025-03-01T09:00:00Z')],
      '2025-03-01T09:01:00Z',
    );
    const { alerts } = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:50:00Z', { spf: false }),
      '2025-03-01T09:02:00Z',
    );
    expect(alerts.filter((a) => a.rule === 'protocol_disconnected')).toEqual([]);
  });

  it('a protocol that was never passing is not news; one that stops passing is', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:00:00Z', { bimi: false }),
      '2025-03-01T08:01:00Z',
    );
    const still = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:15:00Z', { bimi: false }),
      '2025-03-01T08:16:00Z',
    );
    expect(still.alerts).toEqual([]);
    const lost = write(
      mirror,
      accountId,
      'health',
      health('2025-03-01T08:30:00Z', { bimi: false, mta_sts: false }),
      '2025-03-01T08:31:00Z',
    );
    expect(lost.alerts.find((a) => a.rule === 'protocol_disconnected')).toMatchObject({
      title: 'MTA-STS record of example.com disconnected',
      severity: 'warning',
    });
  });

  it('survives a restart: reopening the file and seeing the same disconnection again notifies nobody twice', () => {
    const file = join(dir, 'mirror.sqlite');
    const first = baseline(file);
    write(
      first.mirror,
      first.accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T08:35:00Z',
    );
    first.mirror.markDelivered(
      first.mirror.pendingDeliveries('2025-03-01T08:36:00Z').map((a) => a.id),
      'native',
      '2025-03-01T08:36:00Z',
    );
    first.mirror.close();

    const mirror = openMirror(file, { clock: { now: () => Date.parse('2025-03-01T09:00:00Z') } });
    // After a restart the poller refetches an overlapping window and the health scan catches up.
    const refetch = write(
      mirror,
      first.accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T09:00:00Z',
    );
    const scan = write(
      mirror,
      first.accountId,
      'health',
      health('2025-03-01T08:55:00Z', { spf: false }),
      '2025-03-01T09:01:00Z',
    );
    expect([...refetch.alerts, ...scan.alerts].filter((a) => a.rule === 'protocol_disconnected')).toEqual([]);
    expect(mirror.listAlerts({ rule: 'protocol_disconnected' })).toHaveLength(1);
    expect(
      mirror.pendingDeliveries('2025-03-01T09:02:00Z').filter((a) => a.rule === 'protocol_disconnected'),
    ).toEqual([]);
    mirror.close();
  });
});

describe('protocol_restored', () => {
  it('a connected event resolves the episode and raises one info notice, born resolved', () => {
    const { mirror, accountId } = baseline();
    const {
      alerts: [down],
    } = write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T08:35:00Z',
    );
    const up = write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(102, 'spf', 'connected', '2025-03-01T09:10:00Z')],
      '2025-03-01T09:15:00Z',
    );
    expect(up.resolved.map((a) => a.id)).toEqual([down!.id]);
    expect(up.resolved[0]!.resolvedAt).toBe('2025-03-01T09:15:00.000Z');
    expect(up.alerts).toHaveLength(1);
    expect(up.alerts[0]).toMatchObject({
      rule: 'protocol_restored',
      severity: 'info',
      title: 'SPF record of example.com connected again',
      resolvedAt: '2025-03-01T09:15:00.000Z',
    });
    // The stored text carries no clock time (it would read wrong in another zone): the outage's length.
    expect(up.alerts[0]!.body).toBe(
      'The SPF record of example.com is connected again, after 40 minutes disconnected.',
    );
    // Seeing it connected again later changes nothing.
    const later = write(mirror, accountId, 'health', health('2025-03-01T09:30:00Z'), '2025-03-01T09:31:00Z');
    expect(later.alerts).toEqual([]);
    expect(mirror.listAlerts({ open: true })).toEqual([]);
  });

  it('a health scan newer than the outage closes a DNS-raised episode', () => {
    const { mirror, accountId } = baseline();
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T08:35:00Z',
    );
    // This scan predates the outage: it must not close it.
    expect(
      write(mirror, accountId, 'health', health('2025-03-01T08:20:00Z'), '2025-03-01T08:40:00Z').resolved,
    ).toEqual([]);
    const fixed = write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    expect(fixed.resolved.map((a) => a.rule)).toEqual(['protocol_disconnected']);
  });

  it('a re-occurrence after resolution is a new episode that notifies again', () => {
    const { mirror, accountId } = baseline();
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(101, 'spf', 'disconnected', '2025-03-01T08:30:00Z')],
      '2025-03-01T08:35:00Z',
    );
    write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(102, 'spf', 'connected', '2025-03-01T09:10:00Z')],
      '2025-03-01T09:15:00Z',
    );
    const again = write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(103, 'spf', 'disconnected', '2025-03-01T10:00:00Z')],
      '2025-03-01T10:05:00Z',
    );
    expect(again.alerts.map((a) => a.rule)).toEqual(['protocol_disconnected']);
    const all = mirror.listAlerts({ rule: 'protocol_disconnected' });
    expect(all).toHaveLength(2);
    expect(all.filter((a) => a.resolvedAt === null)).toHaveLength(1);
    const fixedAgain = write(
      mirror,
      accountId,
      'dns_changes',
      [dnsEvent(104, 'spf', 'connected', '2025-03-01T10:30:00Z')],
      '2025-03-01T10:35:00Z',
    );
    // Each repair is its own notice.
    expect(fixedAgain.alerts.map((a) => a.rule)).toEqual(['protocol_restored']);
    expect(mirror.listAlerts({ rule: 'protocol_restored' })).toHaveLength(2);
  });
});
