/**
 * The v1 document (`shared/api/openapi.yaml`) as the service and the test harness read it: one
 * `DocumentOperation` per path × method, with `$ref`s to parameters and responses resolved and the
 * extensions the pipeline obeys (`x-scope`, `x-owner-only`). Schemas are NOT copied or re-typed here:
 * validators compile them from the document itself (./validators.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Where the document lives in the repository. */
export const DOCUMENT_FILE = fileURLToPath(new URL('../../shared/api/openapi.yaml', import.meta.url));

/** A JSON schema fragment of the document (kept loose on purpose: Ajv is the one that understands it). */
export type SchemaObject = Record<string, unknown>;

/** The parsed document (only the parts read here are typed). */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** A resolved parameter. */
export interface DocumentParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: SchemaObject;
}

/** A resolved response: status → JSON schema (undefined when the response has no JSON body). */
export type DocumentResponses = Map<string, SchemaObject | undefined>;

/** One operation of the document, as the registrar and the harness use it. */
export interface DocumentOperation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path template as written in the document, e.g. `/domains/{domain_id}`. */
  path: string;
  /** Scope from `x-scope`; null on public operations. */
  scope: string | null;
  ownerOnly: boolean;
  inferred: boolean;
  parameters: DocumentParameter[];
  /** JSON schema of the request body, or null when the operation takes none. */
  requestBody: { required: boolean; schema: SchemaObject } | null;
  responses: DocumentResponses;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Reads and parses the document file. */
export function loadDocument(file: string = DOCUMENT_FILE): OpenApiDocument {
  const doc = parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  if (!doc || typeof doc !== 'object' || !doc.paths) throw new Error(`${file} is not an OpenAPI document`);
  return doc;
}

/** Follows a local `$ref` (`#/components/...`) inside the document. */
export function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in node)) throw new Error(`Unresolvable $ref ${ref}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function deref<T>(doc: OpenApiDocument, node: unknown): T {
  let current = node;
  // A reusable object may itself be a $ref to another one.
  for (let hops = 0; current && typeof current === 'object' && '$ref' in current; hops++) {
    if (hops > 10) throw new Error('Too many $ref hops');
    current = resolvePointer(doc, String((current as { $ref: unknown }).$ref));
  }
  return current as T;
}

function jsonSchemaOf(content: unknown): SchemaObject | undefined {
  if (!content || typeof content !== 'object') return undefined;
  const media = (content as Record<string, { schema?: SchemaObject }>)['application/json'];
  return media?.schema;
}

/** Every operation of the document, in document order. */
export function listOperations(doc: OpenApiDocument): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const pathParams = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      if (typeof op.operationId !== 'string') throw new Error(`${method} ${path} has no operationId`);
      const params = new Map<string, DocumentParameter>();
      for (const raw of [...pathParams, ...((op.parameters as unknown[] | undefined) ?? [])]) {
        const p = deref<DocumentParameter>(doc, raw);
        params.set(`${p.in}:${p.name}`, { ...p, required: p.required === true, schema: p.schema ?? {} });
      }
      const body = op.requestBody
        ? deref<{ required?: boolean; content?: unknown }>(doc, op.requestBody)
        : undefined;
      const bodySchema = body ? jsonSchemaOf(body.content) : undefined;
      const responses: DocumentResponses = new Map();
      for (const [status, raw] of Object.entries((op.responses as Record<string, unknown>) ?? {})) {
        const response = deref<{ content?: unknown }>(doc, raw);
        responses.set(status, jsonSchemaOf(response.content));
      }
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        scope: typeof op['x-scope'] === 'string' ? op['x-scope'] : null,
        ownerOnly: op['x-owner-only'] === true,
        inferred: op['x-inferred'] === true,
        parameters: [...params.values()],
        requestBody: bodySchema ? { required: body?.required === true, schema: bodySchema } : null,
        responses,
      });
    }
  }
  return operations;
}
