/**
 * An edit's body and answer as they cross the bridge, typed per operation from openapi.yaml: the body is the
 * operation's request body and the answer's data its success answer's `data`, both read from the generated
 * `operations` (shared/api/types.gen.ts, keyed by operationId — the edit's name). Nothing is restated here:
 * the run-time check of a body is the generated request validator (shared/api/requestBodies.ts), and the
 * answer's values are checked against the document's own schemas in main before they cross.
 */
import type { operations } from '../api/types.gen.ts';
import type { DataOf } from '../api/typedClient.ts';
import type { EditOperationName } from './editOperationNames.ts';
import type { Stored } from './storedAnswers.ts';

// An operation without a body declares `requestBody?: never`, which would match any shape: it takes none.
type JsonBody<O> = O extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? never
    : NonNullable<R> extends { content: { 'application/json': infer B } }
      ? B
      : never
  : never;

/** The JSON body edit O sends, as openapi.yaml declares it (never: the operation takes none). */
export type EditBody<O extends EditOperationName> = O extends EditOperationName
  ? JsonBody<operations[O]>
  : never;

/**
 * The `data` of edit O's answer as handed to the renderer: the interface's declared shape with every field
 * possibly missing or null, as main checks only the bounds of the values present (DESIGN.md "tolerance").
 */
export type EditData<O extends EditOperationName> = O extends EditOperationName
  ? Stored<DataOf<operations[O]>>
  : never;
