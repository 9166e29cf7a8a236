import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { dnsEvent } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of dns_changes, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['dns_changes'] = [dnsEvent(1, 'spf', 'disconnected', '2025-03-01T08:00:00Z')];

describe('dns_changes: decoding its answer', () => {
  decodeCases('dns_changes', SAMPLE, [[{ ...SAMPLE[0], id: null }], '0.id']);
});
