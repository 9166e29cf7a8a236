/**
 * shared/api/requestValidators.gen.ts must be what `npm run gen:api` (scripts/genRequestValidators.ts) makes
 * from openapi.yaml today: main and the forms check bodies with it, so a stale copy would refuse what the
 * service now takes, or send what it now refuses.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_FILE,
  OUTPUT_FILE,
  renderRequestValidators,
} from '../../../scripts/genRequestValidators.ts';

describe('shared/api/requestValidators.gen.ts', () => {
  it('matches a fresh generation from openapi.yaml (else: run npm run gen:api)', async () => {
    const fresh = await renderRequestValidators(readFileSync(DOCUMENT_FILE, 'utf8'));
    const committed = readFileSync(OUTPUT_FILE, 'utf8');
    expect(committed === fresh, 'requestValidators.gen.ts is stale: run npm run gen:api').toBe(true);
  }, 60_000);

  it('needs nothing a browser lacks (no require, no eval)', () => {
    const committed = readFileSync(OUTPUT_FILE, 'utf8');
    expect(committed).not.toMatch(/\brequire\(|new Function|\beval\(/);
  });
});
