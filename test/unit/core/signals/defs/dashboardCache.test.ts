import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of dashboard_cache, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['dashboard_cache'] = {
  domain_id: 1,
  fqdn: 'example.com',
  cached: false,
  cached_at: null,
  start_date: '2025-02-01',
  end_date: '2025-03-01',
  data: null,
};

describe('dashboard_cache: decoding its answer', () => {
  decodeCases('dashboard_cache', SAMPLE, [{ ...SAMPLE, cached: 'no' }, 'cached']);
});
