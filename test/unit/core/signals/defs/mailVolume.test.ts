import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of mail_volume, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['mail_volume'] = {
  domain_id: 1,
  fqdn: 'example.com',
  start_date: '2025-02-01',
  end_date: '2025-03-01',
  totals: { total: 3, delivered: 3, quarantined: 0, rejected: 0, dmarc_pass: 3, dmarc_fail: 0 },
  timeline: [
    {
      date: '2025-02-01',
      total: 3,
      delivered: 3,
      quarantined: 0,
      rejected: 0,
      dmarc_pass: 3,
      dmarc_fail: 0,
    },
  ],
};

describe('mail_volume: decoding its answer', () => {
  decodeCases('mail_volume', SAMPLE, [{ ...SAMPLE, timeline: [{ date: '01/02/2025' }] }, 'timeline.0.date']);
});
