/**
 * Every write of the interface reaches a screen: the operations the app offers as edits (one form each, see
 * test/unit/renderer/editForm.test.ts) are exactly the document's POST, PUT, PATCH and DELETE operations, so
 * a write added to openapi.yaml without a form fails here.
 */
import { describe, expect, it } from 'vitest';
import { EDIT_OPERATION_NAMES } from '../../../shared/bridge/editOperationNames.ts';
import { listOperations, loadDocument } from '../../../service/openapi/document.ts';

/** POSTs that change nothing: the app reads them as panels (the recommendation beside the DMARC preview). */
const READING_POSTS = new Set(['getDmarcRecommendation']);

describe('the edit forms', () => {
  it('cover every write operation of openapi.yaml', () => {
    const writes = listOperations(loadDocument())
      .filter((op) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method))
      .map((op) => op.operationId)
      .filter((id) => !READING_POSTS.has(id));
    expect(writes.length).toBeGreaterThanOrEqual(45);
    expect([...EDIT_OPERATION_NAMES].sort()).toEqual(writes.sort());
  });
});
