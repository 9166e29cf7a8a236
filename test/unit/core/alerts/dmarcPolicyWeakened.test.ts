import { describe, expect, it } from 'vitest';
import { DOMAIN_ID, health, mirrorWithDomain, write } from '../mirror/payloads.ts';

/** A health scan of example.com whose live DMARC record is `record`. */
function scan(at: string, record: string | null) {
  return { ...health(at), dmarc_record: record };
}

function setup(first: string) {
  const { mirror, accountId } = mirrorWithDomain();
  const at = (n: number) => `2025-03-01T${String(9 + n).padStart(2, '0')}:00:00Z`;
  const baseline = write(mirror, accountId, 'health', scan(at(0), first), at(0));
  expect(baseline.alerts).toEqual([]);
  let n = 0;
  return {
    mirror,
    accountId,
    next: (record: string | null) => {
      n += 1;
      return write(mirror, accountId, 'health', scan(at(n), record), at(n));
    },
  };
}

describe('dmarc_policy_weakened', () => {
  it('raises a warning when p is lowered, saying before → after', () => {
    const { next } = setup('v=DMARC1; p=reject; rua=mailto:d@example.com');
    const result = next('v=DMARC1; p=none; rua=mailto:d@example.com');
    expect(result.alerts).toHaveLength(1);
    expect(result.alerts[0]).toMatchObject({
      rule: 'dmarc_policy_weakened',
      severity: 'warning',
      title: 'DMARC policy of example.com lowered from reject to none',
    });
    expect(result.alerts[0]!.body).toContain('the policy went from reject to none');
    // The subdomain policy followed p (no sp): it was lowered too, and the body says so.
    expect(result.alerts[0]!.body).toContain('the subdomain policy went from reject to none');
  });

  it('raises when only sp is lowered', () => {
    const { next } = setup('v=DMARC1; p=reject; sp=reject');
    const result = next('v=DMARC1; p=reject; sp=quarantine');
    expect(result.alerts.map((a) => a.title)).toEqual([
      'DMARC policy of example.com for subdomains lowered from reject to quarantine',
    ]);
  });

  it('raises when pct is reduced (100 → 50) under a policy that applies', () => {
    const { next } = setup('v=DMARC1; p=quarantine');
    const result = next('v=DMARC1; p=quarantine; pct=50');
    expect(result.alerts.map((a) => a.title)).toEqual([
      'DMARC policy of example.com applied to 50 % of failing mail, down from 100 %',
    ]);
    expect(result.alerts[0]!.body).toContain('from 100 % to 50 %');
  });

  it('does not raise when the policy is raised, unchanged, or only its reporting changes', () => {
    const { next, mirror } = setup('v=DMARC1; p=none');
    expect(next('v=DMARC1; p=quarantine; pct=50').alerts).toEqual([]);
    expect(next('v=DMARC1; p=reject').alerts).toEqual([]);
    expect(next('v=DMARC1; p=reject').alerts).toEqual([]);
    expect(next('v=DMARC1; p=reject; rua=mailto:new@example.com').alerts).toEqual([]);
    expect(mirror.listAlerts()).toEqual([]);
  });

  it('says nothing when the record disappears or does not parse (the protocol alerts tell that)', () => {
    const { next } = setup('v=DMARC1; p=reject');
    expect(next(null).alerts).toEqual([]);
    expect(next('not a dmarc record').alerts).toEqual([]);
  });

  it('is one episode: a further weakening refreshes it, and it resolves when the policy is back', () => {
    const { next, mirror } = setup('v=DMARC1; p=reject');
    const first = next('v=DMARC1; p=quarantine');
    expect(first.alerts).toHaveLength(1);
    const id = first.alerts[0]!.id;
    // Lowered further while open: the same episode, its text now from the pre-weakening policy.
    next('v=DMARC1; p=none');
    const open = mirror.listAlerts().filter((a) => a.resolvedAt === null);
    expect(open.map((a) => [a.id, a.title])).toEqual([
      [id, 'DMARC policy of example.com lowered from reject to none'],
    ]);
    // Part way back is still weaker than before: stays open.
    expect(next('v=DMARC1; p=quarantine').resolved).toEqual([]);
    const back = next('v=DMARC1; p=reject');
    expect(back.resolved.map((a) => a.id)).toEqual([id]);
    const ended = mirror.getAlert(id)!;
    expect(ended.resolvedAt).not.toBeNull();
    expect(ended.endReason).toBe('cause_ended');
    // A later weakening is a new episode.
    expect(next('v=DMARC1; p=none').alerts.map((a) => a.id)).not.toContain(id);
  });

  it('does not raise for the policy the user set in this app, but does for anything else', () => {
    const { next, mirror, accountId } = setup('v=DMARC1; p=reject');
    mirror.recordPendingChange({
      accountId,
      domainId: DOMAIN_ID,
      protocol: 'dmarc',
      summary: 'p=quarantine',
      expect: { kind: 'present', tags: { p: 'quarantine' } },
      at: '2025-03-01T09:30:00Z',
    });
    expect(next('v=DMARC1; p=quarantine').alerts).toEqual([]);
    // Lowered again, by someone else: news.
    expect(next('v=DMARC1; p=none').alerts.map((a) => a.title)).toEqual([
      'DMARC policy of example.com lowered from quarantine to none',
    ]);
  });
});
