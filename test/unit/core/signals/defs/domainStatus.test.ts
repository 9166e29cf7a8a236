import { describe, expect, it } from 'vitest';
import answers from '../../../../fixtures/answers/domainStatus.json' with { type: 'json' };
import { decodeSignal } from '../../../../../main/core/signals/decode.ts';
import { SIGNAL_DEFINITIONS } from '../../../../../main/core/signals/registry.ts';
import { DOMAIN_ID, FQDN, mirrorWithDomain, write } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

// The reference service's answers (GET /domains/{id}/status): acme.example verified on every protocol,
// acme-pay.example not (no MTA-STS, TLS-RPT or BIMI record) — recorded with `npm run record:answer`.
type Answer = keyof typeof answers;

/** A recorded answer as the poller hands it over, about the test's domain, decoded like any read. */
function answer(name: Answer) {
  const decoded = decodeSignal('domain_status', { ...answers[name], domain_id: DOMAIN_ID, fqdn: FQDN });
  if (!decoded.ok) throw new Error(`fixture ${name} does not decode: ${decoded.error.message}`);
  return decoded.value;
}

function setup(first: Answer) {
  const { mirror, accountId } = mirrorWithDomain();
  let day = 1;
  const read = (name: Answer) =>
    write(
      mirror,
      accountId,
      'domain_status',
      answer(name),
      `2026-11-${String(day++).padStart(2, '0')}T06:00:00Z`,
    );
  expect(read(first).alerts).toEqual([]);
  return { mirror, accountId, read };
}

describe('domain_status (polled every 14 days) and its rule domainVerificationLost', () => {
  decodeCases('domain_status', answer('verified'), [
    { ...answers.verified, protocols: { spf: { verified: 'yes', status: 'valid' } } },
    'protocols.spf.verified',
  ]);

  it('is polled for every domain, every 14 days, in the context tier; a 404 is the domain gone', () => {
    const { plan, fetch } = SIGNAL_DEFINITIONS.domain_status;
    expect(plan).toMatchObject({ role: 'core', tier: 'context', periodSeconds: 14 * 86_400 });
    expect(fetch.notFound).toBe('domain_gone');
  });

  it('warns when a verified domain is no longer verified, once, and ends when it is verified again', () => {
    const { read } = setup('verified');
    const lost = read('unverified');
    expect(lost.alerts).toHaveLength(1);
    expect(lost.alerts[0]).toMatchObject({
      rule: 'domain_verification_lost',
      severity: 'warning',
      title: 'example.com is no longer verified: MTA-STS, TLS-RPT, BIMI',
    });
    expect(read('unverified').alerts).toEqual([]);
    expect(read('verified').resolved).toHaveLength(1);
  });

  it('says nothing for a domain that was never verified', () => {
    const never = setup('unverified');
    expect(never.read('unverified').alerts).toEqual([]);
  });

  it('shows whether the domain is verified on its Summary, in words', () => {
    const { mirror, accountId, read } = setup('verified');
    read('unverified');
    const rows = mirror.domainDetail(accountId, DOMAIN_ID)?.extraSignals ?? [];
    expect(rows.find((r) => r.signal === 'domain_status')).toMatchObject({
      label: 'Domain verification',
      text: 'not verified (MTA-STS, TLS-RPT, BIMI)',
    });
  });
});
