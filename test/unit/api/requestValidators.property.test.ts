/**
 * The generated request-body validators (shared/api/requestValidators.gen.ts) and the reference service's own
 * (service/openapi/validators.ts, compiled from the same document at start) give the same verdict on a
 * property-based sample of bodies for every write operation that takes one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as generated from '../../../shared/api/requestValidators.gen.ts';
import { EDIT_OPERATION_NAMES } from '../../../shared/bridge/editOperationNames.ts';
import { listOperations, loadDocument } from '../../../service/openapi/document.ts';
import { compileOperationValidators, createDocumentAjv } from '../../../service/openapi/validators.ts';

const doc = loadDocument();
const operations = new Map(listOperations(doc).map((op) => [op.operationId, op]));
const paramsAjv = createDocumentAjv(doc, { coerceTypes: true, useDefaults: true });
const bodyAjv = createDocumentAjv(doc, { coerceTypes: false, useDefaults: true });
const bodies = generated.REQUEST_BODIES as Record<string, { required: boolean } | null>;
const validators = generated as unknown as Record<string, (data: unknown) => boolean>;

/** Property names the document's schema of an operation mentions (at any depth), to aim the sample at them. */
function propertyNames(schema: unknown, seen = new Set<string>(), names = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => propertyNames(s, seen, names));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/') && !seen.has(value)) {
        seen.add(value);
        const target = value
          .slice(2)
          .split('/')
          .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
        propertyNames(target, seen, names);
      } else if (key === 'properties' && value && typeof value === 'object') {
        for (const name of Object.keys(value)) names.add(name);
        propertyNames(value, seen, names);
      } else propertyNames(value, seen, names);
    }
  }
  return names;
}

/** Values that sit on and around the document's bounds, formats and patterns. */
const interesting = fc.oneof(
  fc.constantFrom(
    'none',
    'quarantine',
    'reject',
    'r',
    's',
    '-all',
    '~all',
    'all',
    'testing',
    'enforce',
    'Allow',
    'Reject',
    'allow',
    'example.com',
    'example.com.',
    'nodot',
    '_spf.example.com',
    '192.0.2.1',
    '2001:db8::/32',
    '999.1.1.1',
    '::::::',
    '01.2.3.4',
    'mailto:a@example.com',
    'mailto:a@example.com, mailto:b@example.org',
    'https://x',
    'v=spf1 -all',
    'v=TLSRPTv1; rua=mailto:t@example.com',
    'v=BIMI1; l=https://x/l.svg',
    'version: STSv1\nmode: testing\n',
    '-----BEGIN CERTIFICATE-----\nMII',
    'domains:read',
    'admin',
    'en',
    'pt-BR',
    'english',
    'new@example.com',
    'not-an-email',
    '0:1:d',
    'x',
    '',
    'active',
    '<svg/>',
  ),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('x'.repeat(51), 'x'.repeat(101), 'x'.repeat(301)),
  fc.integer({ min: -2, max: 40_000_000 }),
  fc.constantFrom(0, 1, 30, 50, 100, 101, 365, 366, 3600, 86_400, 31_557_601, 1.5),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  { weight: 4, arbitrary: interesting },
  { weight: 1, arbitrary: fc.array(interesting, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }) },
);

const withBody = EDIT_OPERATION_NAMES.filter((name) => bodies[name]);

describe('generated request validators', () => {
  it('cover exactly the write operations that take a body', () => {
    for (const name of EDIT_OPERATION_NAMES) {
      expect(bodies[name] !== null, name).toBe(operations.get(name)?.requestBody != null);
      if (bodies[name]) expect(typeof validators[`validate_${name}`], name).toBe('function');
    }
  });

  it('give the same verdicts as the service’s validators on a sample of bodies', () => {
    let accepted = 0;
    let refused = 0;
    for (const name of withBody) {
      const op = operations.get(name)!;
      const service = compileOperationValidators(op, paramsAjv, bodyAjv);
      const keys = [...propertyNames(op.requestBody!.schema), 'surely_unknown'];
      const body = fc.oneof(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 4 }), value);
      fc.assert(
        fc.property(body, (sample) => {
          const theirs = service.body(structuredClone(sample)).length === 0;
          const ours = validators[`validate_${name}`]!(structuredClone(sample));
          if (ours) accepted++;
          else refused++;
          return ours === theirs;
        }),
        { numRuns: 150, seed: 9 },
      );
    }
    // The sample is worth something only when it holds both verdicts.
    expect(accepted).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  }, 120_000);
});
