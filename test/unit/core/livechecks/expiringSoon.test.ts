/**
 * The "Expiring soon" card's data: what the live checks saw, within the next 30 days or already expired,
 * soonest first, each naming the domain (its Checks tab) or the account (its token), in words.
 */
import { describe, expect, it } from 'vitest';
import { daysLeftWords, expiringSoon } from '../../../../main/core/livechecks/expiringSoon.ts';
import type { LiveCheckRow } from '../../../../main/core/mirror/liveCheckStore.ts';

const NOW = Date.parse('2026-11-30T08:00:00Z');
const inDays = (d: number) => new Date(NOW + d * 86_400_000 + 3_600_000).toISOString();
const LABELS = new Map([
  [1, 'Acme Corp'],
  [2, 'Client B'],
]);

function row(check: string, result: unknown, over: Partial<LiveCheckRow> = {}): LiveCheckRow {
  return {
    check,
    accountId: 1,
    domainId: 10,
    fqdn: 'acme.example',
    status: 'ok',
    words: '',
    checkedAt: new Date(NOW).toISOString(),
    since: new Date(NOW).toISOString(),
    result,
    resultAt: new Date(NOW).toISOString(),
    dnsSeen: null,
    ...over,
  };
}

const cert = (days: number) => ({ notAfter: inDays(days), valid: true, daysLeft: days });
const mtaSts = (days: number, mode = 'enforce') =>
  row('mta_sts_live', {
    host: 'mta-sts.acme.example',
    certificate: cert(days),
    policy: { mode, maxAge: 86400, mx: ['mx1.acme.example'] },
  });
const mx = (hosts: [string, number][], over: Partial<LiveCheckRow> = {}) =>
  row('mx_starttls', { hosts: hosts.map(([host, d]) => ({ host, certificate: cert(d) })) }, over);
const vmc = (days: number, over: Partial<LiveCheckRow> = {}) =>
  row('vmc_expiry', { subject: 'CN=Acme', validTo: inDays(days), stage: null, when: '' }, over);
const token = (days: number | null, accountId = 1) =>
  row(
    'token_expiry',
    { expiresAt: days === null ? null : inDays(days), tokenName: 'ci', stage: null, when: '' },
    { accountId, domainId: null, fqdn: null },
  );

describe('expiringSoon', () => {
  it('lists certificates, VMCs and tokens of the next 30 days soonest first, with days left in words', () => {
    const card = expiringSoon(
      [vmc(20), token(12), mtaSts(9), mx([['mx1.acme.example', 45]]), token(200, 2)],
      LABELS,
      NOW,
    );
    expect(card.windowDays).toBe(30);
    expect(card.entries.map((e) => [e.kind, e.daysLeft, e.when])).toEqual([
      ['mta_sts_certificate', 9, 'expires in 9 days'],
      ['api_token', 12, 'expires in 12 days'],
      ['vmc', 20, 'expires in 20 days'],
    ]);
  });

  it('keeps what has already expired (first) and drops what expires after the window', () => {
    const card = expiringSoon([mtaSts(30), mtaSts(31), vmc(-2)], LABELS, NOW);
    expect(card.entries.map((e) => [e.kind, e.when])).toEqual([
      ['vmc', 'expired 2 days ago'],
      ['mta_sts_certificate', 'expires in 30 days'],
    ]);
  });

  it('names where each entry leads: a domain’s entries carry the domain, a token only its account', () => {
    const card = expiringSoon([mtaSts(5), token(3, 2)], LABELS, NOW);
    const [tok, sts] = card.entries;
    expect(tok).toMatchObject({
      accountId: 2,
      domainId: null,
      fqdn: null,
      what: 'API token “ci” of Client B',
    });
    expect(sts).toMatchObject({ accountId: 1, domainId: 10, fqdn: 'acme.example' });
  });

  it('says what happens on the date, louder for MX hosts under an enforced MTA-STS policy', () => {
    const card = expiringSoon([mtaSts(60), mx([['mx1.acme.example', 6]])], LABELS, NOW);
    expect(card.entries).toHaveLength(1);
    expect(card.entries[0]).toMatchObject({
      what: 'STARTTLS certificate of mx1.acme.example (MX of acme.example)',
      severity: 'critical',
    });
    expect(card.entries[0]!.consequence).toBe(
      'senders will refuse mail to acme.example through mx1.acme.example (its MTA-STS policy enforces TLS)',
    );
    const testing = expiringSoon([mtaSts(60, 'testing'), mx([['mx1.acme.example', 6]])], LABELS, NOW);
    expect(testing.entries[0]!.consequence).toMatch(/senders that verify certificates refuse/);
  });

  it('grades by days left: critical within 7, warning within 14, a notice later', () => {
    const card = expiringSoon([vmc(7), mtaSts(14), token(15)], LABELS, NOW);
    expect(card.entries.map((e) => e.severity)).toEqual(['critical', 'warning', 'notice']);
  });

  it('leaves out a check that no longer applies, but keeps the last date one that could not check saw', () => {
    const card = expiringSoon(
      [
        vmc(5, { status: 'not_applicable' }),
        mx([['mx1.acme.example', 4]], { status: 'unknown', domainId: 11, fqdn: 'b.example' }),
        token(null),
      ],
      LABELS,
      NOW,
    );
    expect(card.entries.map((e) => e.fqdn)).toEqual(['b.example']);
  });

  it('is empty, and says whether anything was checked at all', () => {
    expect(expiringSoon([], LABELS, NOW)).toEqual({ windowDays: 30, entries: [], checked: false });
    expect(expiringSoon([mtaSts(90)], LABELS, NOW)).toEqual({ windowDays: 30, entries: [], checked: true });
  });

  it('words the days around today', () => {
    expect([2, 1, 0, -1, -5].map(daysLeftWords)).toEqual([
      'expires in 2 days',
      'expires tomorrow',
      'expires today',
      'expired yesterday',
      'expired 5 days ago',
    ]);
  });
});
