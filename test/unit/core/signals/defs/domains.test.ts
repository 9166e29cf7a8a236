import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { domainsPayload } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of domains, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['domains'] = domainsPayload();

describe('domains: decoding its answer', () => {
  decodeCases('domains', SAMPLE, [[{ id: '12', fqdn: 'example.com' }], '0.id']);
});
