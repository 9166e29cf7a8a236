import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PROTOCOLS, type Protocol } from '../../../../shared/email-auth/protocols.ts';
import { derivedScore, interpretScore, scoreMessage } from '../../../../service/scan/securityScore.ts';
import { resultLabel, RESULT_LABELS } from '../../../../service/scan/resultLabel.ts';

const flagsArb = fc.record(
  Object.fromEntries(PROTOCOLS.map((p) => [p, fc.boolean()])) as Record<Protocol, fc.Arbitrary<boolean>>,
);

describe('derivedScore and interpretScore', () => {
  it('is protocols_passing / 5 × 10 exactly', () => {
    expect([0, 1, 2, 3, 4, 5].map(derivedScore)).toEqual([0, 2, 4, 6, 8, 10]);
  });

  it('interprets at the documented thresholds', () => {
    expect([10, 9, 8.9, 7, 6.9, 5, 4.9, 3, 2.9, 0].map(interpretScore)).toEqual([
      'excellent',
      'excellent',
      'good',
      'good',
      'fair',
      'fair',
      'poor',
      'poor',
      'critical',
      'critical',
    ]);
  });

  it('names exactly the protocols that do not pass', () => {
    fc.assert(
      fc.property(flagsArb, (flags) => {
        const message = scoreMessage(flags);
        const passing = PROTOCOLS.filter((p) => flags[p]).length;
        expect(message.startsWith(`${passing} of 5 protocols pass.`)).toBe(true);
        expect(message.includes('MTA-STS')).toBe(!flags.mta_sts);
        expect(message.includes('TLS-RPT')).toBe(!flags.tls_rpt);
        expect(message.includes('BIMI')).toBe(!flags.bimi);
      }),
    );
  });
});

describe('resultLabel', () => {
  it('never rates a domain better when a protocol stops passing', () => {
    const rank = (l: string) => RESULT_LABELS.indexOf(l as (typeof RESULT_LABELS)[number]);
    fc.assert(
      fc.property(
        flagsArb,
        fc.constantFrom(...PROTOCOLS),
        fc.constantFrom('v=DMARC1; p=none', 'v=DMARC1; p=quarantine', 'v=DMARC1; p=reject', null),
        (flags, lost, dmarc) => {
          const worse = { ...flags, [lost]: false };
          expect(rank(resultLabel(worse, dmarc))).toBeGreaterThanOrEqual(rank(resultLabel(flags, dmarc)));
        },
      ),
    );
  });

  it('requires an enforcing DMARC policy plus SPF for Protected below 5/5', () => {
    const two = { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: false };
    expect(resultLabel(two, 'v=DMARC1; p=reject')).toBe('Protected');
    expect(resultLabel(two, 'v=DMARC1; p=quarantine; pct=50')).toBe('Protected');
    expect(resultLabel(two, 'v=DMARC1; p=none')).toBe('Partially protected');
    expect(resultLabel({ ...two, spf: false }, 'v=DMARC1; p=reject')).toBe('Partially protected');
    expect(resultLabel({ ...two, dmarc: false }, null)).toBe('At risk');
    expect(resultLabel({ ...two, dmarc: false, spf: false }, null)).toBe('Unprotected');
    expect(
      resultLabel({ dmarc: true, spf: true, mta_sts: true, tls_rpt: true, bimi: true }, 'v=DMARC1; p=none'),
    ).toBe('Protected');
  });
});
