import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of mta_sts, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['mta_sts'] = {
  policy: { mode: 'enforce', max_age: 604800, mx: ['mx1.example.com'], status: 'active' },
};

describe('mta_sts: decoding its answer', () => {
  decodeCases('mta_sts', SAMPLE, [{ policy: { mode: 'strict', max_age: 86400, mx: [] } }, 'policy.mode']);
});
