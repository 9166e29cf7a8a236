import { describe } from 'vitest';
import type { SignalPayloads } from '../../../../../main/core/signals/catalog.ts';
import { failedSources, source } from '../../mirror/payloads.ts';
import { decodeCases } from '../decodeCases.ts';

/** One realistic `data` of failed_sources, shaped as interface-v1.md describes it. */
const SAMPLE: SignalPayloads['failed_sources'] = failedSources(source('phish.example', true));

describe('failed_sources: decoding its answer', () => {
  decodeCases('failed_sources', SAMPLE, [
    { ...SAMPLE, failed_sources: [{ source_name: 'x', is_registered_threat: 'true' }] },
    'failed_sources.0.is_registered_threat',
  ]);
});
