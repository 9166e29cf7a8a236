import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of sending_services, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['sending_services'] = {
  domain_id: 1,
  fqdn: 'example.com',
  services: [
    {
      source_name: 'Google',
      total_count: 10,
      dmarc: { pass: 10, fail: 0 },
      compliance: 100,
      status: 'compliant',
      is_registered_threat: false,
    },
  ],
};

describe('sending_services: decoding its answer', () => {
  decodeCases('sending_services', SAMPLE, [
    { ...SAMPLE, services: [{ source_name: 'x', total_count: 1.5 }] },
    'services.0.total_count',
  ]);
});
