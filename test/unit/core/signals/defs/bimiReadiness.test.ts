import { describe, expect, it } from 'vitest';
import answers from '../../../../fixtures/answers/bimiReadiness.json' with { type: 'json' };
import { decodeSignal } from '../../../../../main/core/signals/decode.ts';
import { SIGNAL_DEFINITIONS } from '../../../../../main/core/signals/registry.ts';
import { DOMAIN_ID, mirrorWithDomain, write } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

// The reference service's answers (GET /domains/{id}/bimi/readiness): paypal.com with its real VMC, hosted
// logo, SPF and DMARC at p=reject (ready) and at p=none (one check fails); a domain with nothing set up.
type Answer = keyof typeof answers;

/** A fixture answer as the poller hands it over, decoded like any read. */
function answer(name: Answer) {
  const decoded = decodeSignal('bimi_readiness', answers[name]);
  if (!decoded.ok) throw new Error(`fixture ${name} does not decode: ${decoded.error.message}`);
  return decoded.value;
}

function setup(first: Answer) {
  const { mirror, accountId } = mirrorWithDomain();
  let week = 1;
  const read = (name: Answer) =>
    write(
      mirror,
      accountId,
      'bimi_readiness',
      answer(name),
      `2026-11-${String(week++ * 7).padStart(2, '0')}T06:00:00Z`,
    );
  expect(read(first).alerts).toEqual([]);
  return { mirror, accountId, read };
}

describe('bimi_readiness (polled weekly) and its rule bimiReadinessLost', () => {
  decodeCases('bimi_readiness', answer('ready'), [{ ...answers.ready, score: 'high' }, 'score']);

  it('is polled for every domain, weekly, in the context tier (never the alert-bearing reads’ budget)', () => {
    const { plan } = SIGNAL_DEFINITIONS.bimi_readiness;
    expect(plan).toMatchObject({ role: 'core', tier: 'context', periodSeconds: 7 * 86_400 });
  });

  it('refuses a score the interface bounds (0–100), naming it', () => {
    const result = decodeSignal('bimi_readiness', { ...answers.ready, score: 180 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('bimi_readiness: score');
  });

  it('tells when a ready domain stops being ready (its logo no longer shown), once, and ends when it is ready again', () => {
    const { read } = setup('ready');
    const lost = read('dmarcNotEnforced');
    expect(lost.alerts).toHaveLength(1);
    expect(lost.alerts[0]).toMatchObject({
      rule: 'bimi_readiness_lost',
      severity: 'info',
      title: 'BIMI of example.com no longer ready: DMARC at enforcement (quarantine or reject, pct=100)',
    });
    // Still not ready the next week: the same episode, not a second alert.
    expect(read('dmarcNotEnforced').alerts).toEqual([]);
    expect(read('ready').resolved).toHaveLength(1);
  });

  it('says nothing for a domain that was never ready', () => {
    const never = setup('bare');
    expect(never.read('dmarcNotEnforced').alerts).toEqual([]);
    expect(never.read('bare').alerts).toEqual([]);
  });

  it('shows its newest reading on the domain’s Summary (Other checks), in words', () => {
    const { mirror, accountId, read } = setup('ready');
    read('dmarcNotEnforced');
    const rows = mirror.domainDetail(accountId, DOMAIN_ID)?.extraSignals ?? [];
    expect(rows.find((r) => r.signal === 'bimi_readiness')).toEqual({
      signal: 'bimi_readiness',
      label: 'BIMI readiness',
      words: 'Whether mailbox providers can show the brand logo (BIMI readiness)',
      text: 'not ready (80/100): DMARC at enforcement (quarantine or reject, pct=100)',
      fetchedAt: '2026-11-14T06:00:00.000Z',
    });
  });
});
