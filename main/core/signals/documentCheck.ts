/**
 * Checks a decoded answer against the v1 document's own schemas (shared/api/responseSchemas.gen.ts,
 * generated from openapi.yaml): every bound the document states — ranges, patterns, formats, enums,
 * constants — on every value present. Presence is left to the signal decoders, which require only what the
 * engine relies on (DESIGN.md, tolerance): so `required` is dropped, a null member counts as absent, and
 * unknown members are allowed even where the document closes an object.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { RESPONSE_SCHEMAS } from '../../../shared/api/responseSchemas.gen.ts';

/** One value outside the document: where (dotted path into the payload) and why. */
export interface DocumentIssue {
  path: string;
  message: string;
}

const SCHEMAS_ID = 'https://authwatch.local/responses.json';

/** The document's schemas minus what the tolerant reader does not enforce (see the module comment). */
function tolerant(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tolerant);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value)) continue;
    if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && value === false) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
      out[key] = SCHEMAS_ID + value;
      continue;
    }
    out[key] = tolerant(value);
  }
  return out;
}

let ajv: Ajv2020 | null = null;
const compiled = new Map<string, ValidateFunction | null>();

/**
 * The validator of the `data` of GET `path` (a document path template), or of the write named `write:<id>`
 * (its operationId), or null when it has none.
 */
function validatorFor(path: string): ValidateFunction | null {
  const hit = compiled.get(path);
  if (hit !== undefined) return hit;
  const schema = path.startsWith('write:')
    ? RESPONSE_SCHEMAS.writes[path.slice('write:'.length)]
    : RESPONSE_SCHEMAS.responses[path];
  let fn: ValidateFunction | null = null;
  if (schema !== undefined) {
    if (!ajv) {
      // strict off: OpenAPI adds keywords (examples, x-inferred) that are not JSON Schema.
      ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
      addFormats.default(ajv);
      ajv.addSchema({ components: tolerant(RESPONSE_SCHEMAS.components) }, SCHEMAS_ID);
    }
    fn = ajv.compile(tolerant(schema) as Record<string, unknown>);
  }
  compiled.set(path, fn);
  return fn;
}

/** A copy without the null members of objects: the decoders decide which fields may be null or missing. */
function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullMembers);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== null) out[key] = withoutNullMembers(member);
  }
  return out;
}

function dotted(instancePath: string): string {
  if (!instancePath) return '(root)';
  return instancePath
    .slice(1)
    .split('/')
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** One issue per offending value; the alternatives of an anyOf/oneOf are joined with "or". */
function issuesOf(errors: ErrorObject[]): DocumentIssue[] {
  const byPath = new Map<string, string[]>();
  for (const error of errors) {
    // The wrapper only says that none of the alternatives listed beside it matched.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'enum') {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      message = `must be one of ${allowed.map(String).join(', ')}`;
    } else if (error.keyword === 'const') {
      message = `must be ${String((error.params as { allowedValue: unknown }).allowedValue)}`;
    }
    const path = dotted(error.instancePath);
    const messages = byPath.get(path) ?? [];
    if (!messages.includes(message)) messages.push(message);
    byPath.set(path, messages);
  }
  return [...byPath].map(([path, messages]) => ({ path, message: messages.join(' or ') }));
}

/**
 * The values of `data` (the `data` of a GET `path` answer, pages concatenated for lists) that the document
 * does not allow; empty when every present value is within its bounds or the path has no JSON answer.
 */
export function documentIssues(path: string, data: unknown): DocumentIssue[] {
  const validate = validatorFor(path);
  if (!validate || validate(withoutNullMembers(data))) return [];
  return issuesOf(validate.errors ?? []);
}

/** The values of a write's answer `data` (write: its operationId) that the document does not allow. */
export function writeAnswerIssues(write: string, data: unknown): DocumentIssue[] {
  return documentIssues(`write:${write}`, data);
}
