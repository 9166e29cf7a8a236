import { describe, expect, it } from 'vitest';
import { dmarcScans as setup } from './dmarcScans.ts';

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
    const { next, editInApp } = setup('v=DMARC1; p=reject');
    editInApp({ p: 'quarantine' });
    expect(next('v=DMARC1; p=quarantine').alerts).toEqual([]);
    // Lowered again, by someone else: news.
    expect(next('v=DMARC1; p=none').alerts.map((a) => a.title)).toEqual([
      'DMARC policy of example.com lowered from quarantine to none',
    ]);
  });
});
