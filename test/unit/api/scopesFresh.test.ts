/**
 * shared/api/scopes.gen.ts must be exactly what `npm run gen:api` makes from shared/api/openapi.yaml today: a
 * stale table would name the wrong scope when the service answers 403 insufficient_scope.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FILE, OUTPUT_FILE, scopeTableModule } from '../../../scripts/genScopeTable.ts';

describe('shared/api/scopes.gen.ts', () => {
  it('matches a fresh generation from openapi.yaml (else: run npm run gen:api)', async () => {
    const fresh = await scopeTableModule(readFileSync(DOCUMENT_FILE, 'utf8'));
    const committed = readFileSync(OUTPUT_FILE, 'utf8');
    expect(committed === fresh, 'shared/api/scopes.gen.ts is stale: run npm run gen:api').toBe(true);
  });

  it('holds every operation that names a scope', async () => {
    const { OPERATION_SCOPES } = await import('../../../shared/api/scopes.gen.ts');
    expect(OPERATION_SCOPES['GET /auth/me']).toBe('account:read');
    expect(Object.keys(OPERATION_SCOPES).length).toBeGreaterThan(100);
  });
});
