import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { score } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of security_score, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['security_score'] = score(8, '2025-03-01T08:00:00Z');

describe('security_score: decoding its answer', () => {
  decodeCases('security_score', SAMPLE, [{ ...SAMPLE, score: '8' }, 'score']);
});
