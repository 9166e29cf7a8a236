/**
 * The generic webhook's JSON Schema (shared/webhook/webhook-v1.schema.json), compiled once: every body a
 * test receiver gets is checked against it, so the documented contract is the one sent.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const schema = JSON.parse(
  readFileSync(new URL('../../shared/webhook/webhook-v1.schema.json', import.meta.url), 'utf8'),
) as object;
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

/** What is wrong with a body, in words (empty: it is a valid version 1 body). */
export function webhookSchemaErrors(body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`);
}
