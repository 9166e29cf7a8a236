import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of dns_current, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['dns_current'] = {
  domain_id: 1,
  fqdn: 'example.com',
  protocols: {
    spf: {
      current_status: 'connected',
      verified: true,
      status: 'valid',
      last_connected: '2025-03-01T08:00:00Z',
      last_disconnected: null,
      record_value: 'v=spf1 -all',
      lookup_count: 2,
    },
  },
};

describe('dns_current: decoding its answer', () => {
  decodeCases('dns_current', SAMPLE, [
    { ...SAMPLE, protocols: { spf: { verified: 'true' } } },
    'protocols.spf.verified',
  ]);
});
