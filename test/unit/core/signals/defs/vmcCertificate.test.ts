import { describe, expect, it } from 'vitest';
import { decodeSignal } from '../../../../../main/core/signals/decode.ts';
import { SIGNAL_DEFINITIONS } from '../../../../../main/core/signals/registry.ts';
import { mirrorWithDomain, write } from '../../mirror/payloads.ts';

/** The service's VMC analysis (GET /domains/{id}/bimi/vmc) of a certificate ending at `validTo`. */
function analysis(validTo: string, chainOk = true) {
  const decoded = decodeSignal('vmc_certificate', {
    vmc: {
      domain_id: 1,
      valid: chainOk,
      problems: chainOk ? [] : ['certificate 2 expired on 2026-01-01'],
      certificate: {
        subject: 'CN=Example Inc',
        issuer: 'CN=Test VMC CA',
        valid_from: '2025-12-01T00:00:00.000Z',
        valid_to: validTo,
        san: ['example.com'],
        has_logotype: true,
        chain_ok: chainOk,
        problems: chainOk ? [] : ['not trusted by the BIMI roots: unable to get issuer certificate'],
      },
    },
  });
  if (!decoded.ok) throw new Error(decoded.error.message);
  return decoded.value;
}

const VALID_TO = '2026-12-31T00:00:00.000Z';
const daysBefore = (d: number) => new Date(Date.parse(VALID_TO) - d * 86_400_000).toISOString();

describe('vmc_certificate (polled weekly) and its rules', () => {
  it('is read weekly in the context tier, never from the alert-bearing budget', () => {
    expect(SIGNAL_DEFINITIONS.vmc_certificate.plan).toMatchObject({
      tier: 'context',
      periodSeconds: 7 * 86_400,
    });
  });

  it('says when the chain is not trusted, and ends when it is', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const chain = write(
      mirror,
      accountId,
      'vmc_certificate',
      analysis(VALID_TO, false),
      daysBefore(200),
    ).alerts;
    expect(chain).toMatchObject([
      { rule: 'vmc_chain_invalid', severity: 'warning', title: 'VMC of example.com is not trusted' },
    ]);
    write(mirror, accountId, 'vmc_certificate', analysis(VALID_TO, true), daysBefore(193));
    expect(mirror.listAlerts({ accountId, open: true })).toEqual([]);
  });

  it('a domain without a VMC says nothing', () => {
    const { mirror, accountId } = mirrorWithDomain();
    const none = decodeSignal('vmc_certificate', { vmc: null });
    expect(none.ok && write(mirror, accountId, 'vmc_certificate', none.value, daysBefore(2)).alerts).toEqual(
      [],
    );
  });
});
