import { describe, expect, it } from 'vitest';
import { failedSources, mirrorWithDomain, source, write, DOMAIN_ID, FQDN } from './payloads.ts';
import { SENDER_HISTORY_BOUND } from '../../../../main/core/mirror/senderHistory.ts';
import type { SignalPayloads } from '../../../../main/core/signals/catalog.ts';

function services(
  ...list: { name: string; total: number; pass: number }[]
): SignalPayloads['sending_services'] {
  return {
    domain_id: DOMAIN_ID,
    fqdn: FQDN,
    services: list.map((s) => ({
      source_name: s.name,
      total_count: s.total,
      dmarc: { pass: s.pass, fail: s.total - s.pass },
      compliance: (s.pass / s.total) * 100,
      status: s.pass === s.total ? 'compliant' : s.pass === 0 ? 'failing' : 'partial',
      is_registered_threat: false,
    })),
  };
}

describe('senders over time', () => {
  it('keeps volume and compliance per poll; identical polls are one point', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const poll = (at: string, total: number, pass: number) =>
      write(mirror, accountId, 'sending_services', services({ name: 'Google', total, pass }), at);
    poll('2026-11-25T10:00:00Z', 1000, 990);
    poll('2026-11-25T16:00:00Z', 1000, 990);
    poll('2026-11-26T10:00:00Z', 1500, 600);
    const [google] = mirror.domainSenders(accountId, DOMAIN_ID);
    expect(google!.trend.map((p) => [p.at, p.lastAt, p.total, p.compliance])).toEqual([
      ['2026-11-25T10:00:00.000Z', '2026-11-25T16:00:00.000Z', 1000, 99],
      ['2026-11-26T10:00:00.000Z', '2026-11-26T10:00:00.000Z', 1500, 40],
    ]);
    expect(mirror.senderHistory(accountId, DOMAIN_ID, 'Google')).toEqual(google!.trend);
    expect(mirror.senderHistory(accountId, DOMAIN_ID, 'nobody')).toEqual([]);
  });

  it('lists every sender, registered threats first, then failing ones (marked), then by volume', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const at = '2026-11-26T10:00:00Z';
    write(
      mirror,
      accountId,
      'sending_services',
      services({ name: 'Google', total: 900, pass: 900 }, { name: 'Mailchimp', total: 50, pass: 50 }),
      at,
    );
    write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('spoofer.example', true, 30), source('legacy-relay', false, 120)),
      at,
    );
    const senders = mirror.domainSenders(accountId, DOMAIN_ID);
    expect(senders.map((s) => [s.name, s.threat, s.failing])).toEqual([
      ['spoofer.example', true, true],
      ['legacy-relay', false, true],
      ['Google', false, false],
      ['Mailchimp', false, false],
    ]);
    // Listed among failed sources for a few failed messages but compliant: not marked failing.
    write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('spoofer.example', true, 30), source('legacy-relay', false, 120), {
        ...source('Google', false, 900),
        dmarc: { pass: 890, fail: 10 },
        compliance: 98.9,
        status: 'compliant',
      }),
      at,
    );
    expect(mirror.domainSenders(accountId, DOMAIN_ID).find((s) => s.name === 'Google')!.failing).toBe(false);
    // A failing-only sender's trend comes from the failed-sources polls.
    expect(senders[1]!.trend.map((p) => [p.kind, p.total])).toEqual([['failed', 120]]);
    // Listed by both answers with the same figures at different times: one point, not two.
    write(
      mirror,
      accountId,
      'sending_services',
      {
        domain_id: DOMAIN_ID,
        fqdn: FQDN,
        services: [{ ...source('legacy-relay', false, 120) }],
      },
      '2026-11-26T11:00:00Z',
    );
    const relay = mirror.senderHistory(accountId, DOMAIN_ID, 'legacy-relay');
    expect(relay.map((p) => [p.total, p.at, p.lastAt])).toEqual([
      [120, '2026-11-26T10:00:00.000Z', '2026-11-26T11:00:00.000Z'],
    ]);
  });

  it('a sender that starts failing shows it in its trend', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(mirror, accountId, 'failed_sources', failedSources(), '2026-11-24T10:00:00Z');
    write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('relay', false, 40)),
      '2026-11-25T10:00:00Z',
    );
    write(
      mirror,
      accountId,
      'failed_sources',
      failedSources(source('relay', false, 90)),
      '2026-11-26T10:00:00Z',
    );
    const history = mirror.senderHistory(accountId, DOMAIN_ID, 'relay');
    expect(history.map((p) => [p.at.slice(0, 10), p.total, p.status])).toEqual([
      ['2026-11-25', 40, 'failing'],
      ['2026-11-26', 90, 'failing'],
    ]);
  });

  it('keeps a bounded history: rows older than 400 days go, and a sender keeps its newest 1,000 rows', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString();
    write(
      mirror,
      accountId,
      'sending_services',
      services({ name: 'Old relay', total: 10, pass: 10 }),
      day(0),
    );
    write(mirror, accountId, 'sending_services', services({ name: 'Google', total: 10, pass: 10 }), day(2));
    // 401 days after the old relay was last seen, and 399 after Google: the relay's row is past the bound.
    write(
      mirror,
      accountId,
      'sending_services',
      services({ name: 'Mailchimp', total: 5, pass: 5 }),
      day(401),
    );
    expect(mirror.senderHistory(accountId, DOMAIN_ID, 'Old relay')).toEqual([]);
    expect(mirror.senderHistory(accountId, DOMAIN_ID, 'Google')).toHaveLength(1);

    // A sender whose figures change at every poll: 1,005 hourly changes keep the newest 1,000.
    const start = Date.parse(day(402));
    for (let i = 0; i < 1_005; i++)
      write(
        mirror,
        accountId,
        'sending_services',
        services({ name: 'Busy', total: 100 + i, pass: 100 }),
        new Date(start + i * 3_600_000).toISOString(),
      );
    const busy = mirror.senderHistory(accountId, DOMAIN_ID, 'Busy');
    expect(busy).toHaveLength(SENDER_HISTORY_BOUND.maxRowsPerSender);
    expect(busy[0]!.total).toBe(105);
    expect(busy.at(-1)!.total).toBe(1_104);
  });
});
