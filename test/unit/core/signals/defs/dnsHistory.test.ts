import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of dns_history, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['dns_history'] = [
  { record_type: 'spf', record_value: 'v=spf1 -all', occurred_at: '2025-03-01T08:00:00Z', lookup_count: 2 },
];

describe('dns_history: decoding its answer', () => {
  decodeCases('dns_history', SAMPLE, [[{ record_type: 'spf', occurred_at: 12 }], '0.occurred_at']);
});
