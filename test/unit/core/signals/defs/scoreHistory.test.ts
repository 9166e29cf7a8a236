import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of score_history, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['score_history'] = {
  domain_id: 1,
  fqdn: 'example.com',
  max_score: 10,
  note: 'derived',
  history: [
    {
      derived_score: 8,
      protocols_passing: 4,
      total_protocols: 5,
      result: 'Protected',
      scanned_at: '2025-03-01T08:00:00Z',
    },
  ],
};

describe('score_history: decoding its answer', () => {
  decodeCases('score_history', SAMPLE, [
    { ...SAMPLE, history: [{ derived_score: 8, scanned_at: 'yesterday' }] },
    'history.0.scanned_at',
  ]);
});
