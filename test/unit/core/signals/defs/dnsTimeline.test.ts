import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { dnsEvent } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of dns_timeline, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['dns_timeline'] = {
  domain_id: 1,
  fqdn: 'example.com',
  summary: {
    spf: {
      current_status: 'connected',
      last_connected: '2025-03-01T08:00:00Z',
      last_disconnected: null,
      connection_count: 1,
      disconnection_count: 0,
    },
  },
  events: [dnsEvent(2, 'spf', 'connected', '2025-03-01T08:00:00Z')],
};

describe('dns_timeline: decoding its answer', () => {
  decodeCases('dns_timeline', SAMPLE, [{ ...SAMPLE, events: 'none' }, 'events']);
});
