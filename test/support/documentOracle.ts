/**
 * The tests' own judge of "a value the document allows": the `data` of a GET answer checked against
 * shared/api/openapi.yaml as the service reads it (Ajv over the parsed YAML), independently of the engine's
 * generated copy. It reads as the engine is meant to (DESIGN.md, tolerance): presence is not judged
 * (`required` ignored, null members count as absent, unknown members allowed); every present value must be
 * within the bounds the document gives it.
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { documentRuntime } from '../../service/openapi/documentRuntime.ts';
import type { OpenApiDocument } from '../../service/openapi/document.ts';
import { absolutize, createDocumentAjv } from '../../service/openapi/validators.ts';

function presenceFree(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(presenceFree);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value)) continue;
    if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && value === false) continue;
    out[key] = presenceFree(value);
  }
  return out;
}

function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullMembers);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([key, member]) => [key, withoutNullMembers(member)]),
  );
}

let oracle: { ajv: Ajv2020; compiled: Map<string, ValidateFunction> } | null = null;

/**
 * What the document does not allow in `data`, the data of an answer to GET `path` (a path template of the
 * document, e.g. /domains/{domain_id}/health); empty when every present value is within bounds.
 */
export function documentObjections(path: string, data: unknown): string[] {
  const runtime = documentRuntime();
  oracle ??= {
    ajv: createDocumentAjv(presenceFree(runtime.doc) as OpenApiDocument, {
      coerceTypes: false,
      useDefaults: false,
    }),
    compiled: new Map(),
  };
  let validate = oracle.compiled.get(path);
  if (!validate) {
    const op = runtime.operations.find((o) => o.method === 'GET' && o.path === path);
    const dataSchema = (op?.responses.get('200')?.properties as Record<string, unknown> | undefined)?.data;
    if (!dataSchema) throw new Error(`the document has no data schema for GET ${path}`);
    validate = oracle.ajv.compile(presenceFree(absolutize(dataSchema)) as Record<string, unknown>);
    oracle.compiled.set(path, validate);
  }
  if (validate(withoutNullMembers(data))) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
