import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of dns_snapshots, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['dns_snapshots'] = {
  domain_id: 1,
  fqdn: 'example.com',
  dmarc: [{ id: 1, record_value: 'v=DMARC1; p=none', occurred_at: '2025-03-01T08:00:00Z' }],
  spf: [],
};

describe('dns_snapshots: decoding its answer', () => {
  decodeCases('dns_snapshots', SAMPLE, [
    { dmarc: [{ id: 'one', occurred_at: '2025-03-01T08:00:00Z' }] },
    'dmarc.0.id',
  ]);
});
