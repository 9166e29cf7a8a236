/**
 * shared/api/types.gen.ts must be exactly what `npm run gen:api` makes from shared/api/openapi.yaml today:
 * a stale file would let the client compile against shapes the contract no longer has.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const DOCUMENT_URL = new URL('../../../shared/api/openapi.yaml', import.meta.url);
const TYPES_FILE = fileURLToPath(new URL('../../../shared/api/types.gen.ts', import.meta.url));

describe('shared/api/types.gen.ts', () => {
  it('matches a fresh generation from openapi.yaml (else: run npm run gen:api)', async () => {
    // Same steps as the gen:api script: the CLI prepends COMMENT_HEADER, then prettier formats with the repo's config.
    // A field with a default is optional, as a request body may leave it out (--default-non-nullable false).
    const generated =
      COMMENT_HEADER +
      astToString(await openapiTS(DOCUMENT_URL, { silent: true, defaultNonNullable: false }));
    const options = (await prettier.resolveConfig(TYPES_FILE)) ?? {};
    const formatted = await prettier.format(generated, { ...options, filepath: TYPES_FILE });
    const committed = readFileSync(TYPES_FILE, 'utf8');
    expect(committed === formatted, 'shared/api/types.gen.ts is stale: run npm run gen:api').toBe(true);
  });
});
