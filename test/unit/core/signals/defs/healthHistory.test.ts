import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of health_history, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['health_history'] = [
  {
    id: 9,
    result: 'Protected',
    mail_provider: 'Microsoft 365',
    protocols: { dmarc: true, spf: true, mta_sts: false, tls_rpt: false, bimi: false },
    protocols_passing: 2,
    total_protocols: 5,
    scanned_at: '2025-02-28T08:00:00Z',
  },
];

describe('health_history: decoding its answer', () => {
  decodeCases('health_history', SAMPLE, [[{ ...SAMPLE[0], protocols: { spf: 'yes' } }], '0.protocols.spf']);
});
