/**
 * Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses) validators compiled from the document's own schemas.
 *
 * The whole document is registered in Ajv under DOCUMENT_ID, and every schema taken from it has its local
 * `$ref`s (`#/components/...`) rewritten to `DOCUMENT_ID#/components/...`, so references resolve against the
 * document and nothing is copied by hand. Violations become `{field, message}` problems with field
 * `body.name`, `body.domains[0]`, `query.limit`, `path.domain_id`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FieldProblem } from '../http/serviceError.ts';
import type { DocumentOperation, DocumentParameter, OpenApiDocument, SchemaObject } from './document.ts';

/** The `$id` the document is registered under. */
export const DOCUMENT_ID = 'https://authwatch.local/openapi.json';

/** Options of one Ajv instance: parameters need coercion (strings from the URL), bodies and responses not. */
export interface DocumentAjvOptions {
  coerceTypes: boolean;
  useDefaults: boolean;
}

/** An Ajv instance that knows the document. */
export function createDocumentAjv(doc: OpenApiDocument, options: DocumentAjvOptions): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false, // OpenAPI adds keywords (example, x-*, discriminator) that are not JSON Schema
    allErrors: true,
    coerceTypes: options.coerceTypes,
    useDefaults: options.useDefaults,
    validateSchema: false,
    validateFormats: true,
  });
  addFormats.default(ajv);
  ajv.addSchema(structuredClone(doc), DOCUMENT_ID);
  return ajv;
}

/** Deep copy of `schema` whose local $refs point into the registered document. */
export function absolutize(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absolutize);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? DOCUMENT_ID + value
        : absolutize(value);
  }
  return out;
}

/** Validates and (for parameters) coerces/defaults one part of a request; returns problems (empty = ok). */
export type PartValidator = (value: unknown) => FieldProblem[];

/** The validators of one operation. */
export interface OperationValidators {
  path: PartValidator;
  query: PartValidator;
  /** Validates the parsed JSON body (undefined = no body sent). */
  body: PartValidator;
}

function parametersSchema(params: DocumentParameter[]): SchemaObject {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = absolutize(p.schema);
    if (p.required) required.push(p.name);
  }
  // Unknown query parameters are ignored, as most APIs do.
  return { type: 'object', properties, required };
}

/** Compiles the path/query/body validators of an operation. */
export function compileOperationValidators(
  op: DocumentOperation,
  paramsAjv: Ajv2020,
  bodyAjv: Ajv2020,
): OperationValidators {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const pathFn = paramsAjv.compile(parametersSchema(pathParams));
  const queryFn = paramsAjv.compile(parametersSchema(queryParams));
  const bodyFn = op.requestBody ? bodyAjv.compile(absolutize(op.requestBody.schema) as SchemaObject) : null;
  const bodyRequired = op.requestBody?.required === true;
  return {
    path: (value) => runParameters(pathFn, pathParams, value, 'path'),
    query: (value) => runParameters(queryFn, queryParams, value, 'query'),
    body: (value) => {
      if (!bodyFn) return [];
      if (value === undefined) return bodyRequired ? [{ field: 'body', message: 'is required' }] : [];
      return run(bodyFn, value, 'body');
    },
  };
}

/** Integer parameters as the URL must spell them: decimal digits (no 0x10, 1e3, +16, " 16"; a minus sign is left to the minimum). */
const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Validates path or query parameters. Integer parameters are converted here rather than by Ajv's coercion,
 * which takes anything `Number()` reads (`0x10` → 16, `1e1` → 10, `99999999999999999999` → an inexact 1e20):
 * an id that is not written in decimal, or that no JavaScript number holds exactly, is refused instead of
 * silently naming another entry.
 */
function runParameters(
  fn: ValidateFunction,
  params: DocumentParameter[],
  value: unknown,
  root: string,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const refused = new Set<string>();
  if (value && typeof value === 'object') {
    const values = value as Record<string, unknown>;
    for (const p of params) {
      const raw = values[p.name];
      if (typeof raw !== 'string' || !isIntegerSchema(p.schema)) continue;
      const field = `${root}.${p.name}`;
      const n = Number(raw);
      if (!DECIMAL_INTEGER.test(raw)) problems.push({ field, message: 'must be a decimal integer' });
      else if (!Number.isSafeInteger(n)) problems.push({ field, message: 'is out of range' });
      else {
        values[p.name] = n;
        continue;
      }
      refused.add(field);
    }
  }
  const rest = run(fn, value, root).filter((problem) => !refused.has(problem.field));
  return [...problems, ...rest];
}

function isIntegerSchema(schema: SchemaObject): boolean {
  const type = schema.type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}

function run(fn: ValidateFunction, value: unknown, root: string): FieldProblem[] {
  if (fn(value)) return [];
  return problemsFromAjv(fn.errors ?? [], root);
}

/** Turns Ajv errors into de-duplicated `{field, message}` problems under `root`. */
export function problemsFromAjv(errors: ErrorObject[], root: string): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const e of errors) {
    // A failed "if"/"oneOf" wrapper only repeats the branch errors listed beside it.
    if (e.keyword === 'if' || e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'allOf') {
      if (errors.length > 1) continue;
    }
    let field = root + fieldPath(e.instancePath);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      field += `.${String((e.params as { missingProperty: string }).missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
      const extra = e.params as { additionalProperty?: string; unevaluatedProperty?: string };
      field += `.${String(extra.additionalProperty ?? extra.unevaluatedProperty)}`;
      message = 'is not allowed';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    } else if (e.keyword === 'const') {
      message = `must be ${String((e.params as { allowedValue: unknown }).allowedValue)}`;
    }
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ field, message });
  }
  return problems;
}

function fieldPath(instancePath: string): string {
  if (!instancePath) return '';
  return instancePath
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`))
    .join('');
}
