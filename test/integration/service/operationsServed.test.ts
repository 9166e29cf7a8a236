// Every operation of the document has a handler in service/operations (and no handler serves an operation
// the document does not have). Until every group is implemented this test FAILS, listing the gaps: that is
// on purpose, so a missing operation cannot go unnoticed.
import { describe, expect, it } from 'vitest';
import { documentRuntime } from '../../../service/openapi/documentRuntime.ts';
import { allHandlers } from '../../../service/operations/index.ts';

describe('operations served', () => {
  const operationIds = documentRuntime().operations.map((op) => op.operationId);

  it('has a handler for every operationId of the document', () => {
    const missing = operationIds.filter((id) => !(id in allHandlers));
    expect(missing, `operations without a handler (${missing.length}):\n${missing.join('\n')}`).toEqual([]);
  });

  it('has no handler for an operationId the document does not define', () => {
    const known = new Set(operationIds);
    const stray = Object.keys(allHandlers).filter((id) => !known.has(id));
    expect(stray).toEqual([]);
  });
});
