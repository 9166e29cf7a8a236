import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of tls_rpt, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['tls_rpt'] = {
  config: { record_value: 'v=TLSRPTv1; rua=mailto:x@example.com' },
  failures: { total_failure: 0 },
};

describe('tls_rpt: decoding its answer', () => {
  decodeCases('tls_rpt', SAMPLE, [{ config: 'enabled' }, 'config']);
});
