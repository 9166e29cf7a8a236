/**
 * shared/api/responseSchemas.gen.ts must be what scripts/genResponseSchemas.ts makes from openapi.yaml today:
 * the engine checks answers against it, so a stale copy would check bounds the document no longer has.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, OUTPUT_FILE, renderResponseSchemas } from '../../../scripts/genResponseSchemas.ts';

describe('shared/api/responseSchemas.gen.ts', () => {
  it('matches a fresh generation from openapi.yaml (else: run npx tsx scripts/genResponseSchemas.ts)', async () => {
    const fresh = await renderResponseSchemas(readFileSync(DOCUMENT_FILE, 'utf8'));
    const committed = readFileSync(OUTPUT_FILE, 'utf8');
    expect(
      committed === fresh,
      'responseSchemas.gen.ts is stale: run npx tsx scripts/genResponseSchemas.ts',
    ).toBe(true);
  });
});
