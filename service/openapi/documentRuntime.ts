/**
 * The document as the running service needs it: parsed once per process, operations listed, validators
 * compiled lazily on first use (compiling all ~105 at once costs ~0.4 s; most test suites touch a few).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { DOCUMENT_FILE, listOperations, loadDocument } from './document.ts';
import type { DocumentOperation, OpenApiDocument } from './document.ts';
import { compileOperationValidators, createDocumentAjv } from './validators.ts';
import type { OperationValidators } from './validators.ts';

/** Parsed document, its operations and their validators. */
export interface DocumentRuntime {
  doc: OpenApiDocument;
  operations: DocumentOperation[];
  byId: Map<string, DocumentOperation>;
  validatorsOf(op: DocumentOperation): OperationValidators;
}

const cache = new Map<string, DocumentRuntime>();

/** The runtime of a document file (memoised per file). */
export function documentRuntime(file: string = DOCUMENT_FILE): DocumentRuntime {
  const hit = cache.get(file);
  if (hit) return hit;
  const doc = loadDocument(file);
  const operations = listOperations(doc);
  let ajvs: { params: Ajv2020; body: Ajv2020 } | null = null;
  const compiled = new Map<string, OperationValidators>();
  const runtime: DocumentRuntime = {
    doc,
    operations,
    byId: new Map(operations.map((op) => [op.operationId, op])),
    validatorsOf(op) {
      let v = compiled.get(op.operationId);
      if (!v) {
        ajvs ??= {
          params: createDocumentAjv(doc, { coerceTypes: true, useDefaults: true }),
          body: createDocumentAjv(doc, { coerceTypes: false, useDefaults: true }),
        };
        v = compileOperationValidators(op, ajvs.params, ajvs.body);
        compiled.set(op.operationId, v);
      }
      return v;
    },
  };
  cache.set(file, runtime);
  return runtime;
}
