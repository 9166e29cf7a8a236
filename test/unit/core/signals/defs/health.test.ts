import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { health } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of health, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['health'] = health('2025-03-01T08:00:00Z', { bimi: false });

describe('health: decoding its answer', () => {
  decodeCases('health', SAMPLE, [{ ...SAMPLE, protocols_passing: 'four' }, 'protocols_passing']);
});
