import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EDIT_OPERATIONS, type EditOperationName } from '../../../../main/core/app/editOperations.ts';

interface Operation {
  operationId: string;
  'x-scope'?: string;
  requestBody?: { required?: boolean; content: { 'application/json': { schema: unknown } } };
}
const doc = parse(readFileSync(new URL('../../../../shared/api/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...doc, $id: 'openapi' });

function operation(name: EditOperationName): Operation {
  const op = EDIT_OPERATIONS[name];
  const found = doc.paths[op.path]?.[op.method.toLowerCase()];
  if (!found) throw new Error(`${name}: ${op.method} ${op.path} is not in openapi.yaml`);
  return found;
}

/** Whether openapi.yaml's request schema of the operation accepts the body. */
function specAccepts(name: EditOperationName, body: unknown): boolean {
  const schema = operation(name).requestBody?.content['application/json'].schema as { $ref?: string };
  const validate = ajv.compile({ $ref: `openapi${schema.$ref}` });
  return validate(body) as boolean;
}

/** Valid and invalid bodies per operation; the app's generated validator and the spec must agree on each. */
const SAMPLES: Partial<Record<EditOperationName, { ok: unknown[]; bad: unknown[] }>> = {
  updateHostedDmarc: {
    ok: [{ p: 'reject' }, { pct: 50, adkim: 's', rua: 'mailto:a@example.com, mailto:b@example.com' }],
    bad: [{}, { p: 'block' }, { pct: 101 }, { rua: 'https://x' }, { p: 'none', extra: 1 }],
  },
  updateDmarcPolicy: {
    ok: [{ policy: 'quarantine' }, { p: 'reject' }],
    bad: [{}, { policy: 'reject', p: 'reject' }, { p: 'x' }],
  },
  updateHostedSpf: { ok: [{ all: '-all' }, { all: '~all' }], bad: [{ all: 'all' }, {}] },
  addSpfInclude: {
    ok: [{ include_content: '_spf.google.com' }],
    bad: [{ include_content: 'not a host' }, {}],
  },
  addSpfIpAction: {
    ok: [
      { ip: '192.0.2.1', type: 'Allow' },
      { ip: '2001:db8::/32', type: 'Reject' },
    ],
    bad: [
      { ip: '999.1.1.1', type: 'Allow' },
      { ip: '192.0.2.1', type: 'allow' },
    ],
  },
  setMtaStsMode: { ok: [{ mode: 'enforce' }], bad: [{ mode: 'on' }, {}] },
  updateMtaStsPolicy: {
    ok: [
      // A whole policy: the service parses policy_text with shared/email-auth and answers 422 to an incomplete one.
      { policy_text: 'version: STSv1\nmode: testing\nmx: mx1.example.com\nmax_age: 86400\n' },
      { mode: 'testing', max_age: 86_400, mx: ['mx1.example.com'] },
    ],
    bad: [{ mode: 'testing', max_age: 60 }, { policy_text: 'mode: enforce' }, { mode: 'enforce' }],
  },
  updateTlsRpt: {
    ok: [{}, { record_value: 'v=TLSRPTv1; rua=mailto:t@example.com' }],
    bad: [{ record_value: 'v=spf1' }],
  },
  createDomain: {
    ok: [{ fqdn: 'example.com' }, { fqdn: 'a.example.org', parent_domain_id: null }],
    bad: [{ fqdn: 'nodot' }, {}],
  },
  bulkCreateDomains: {
    ok: [{ domains: ['a.example.com', 'b.example.com'] }],
    bad: [{ domains: [] }, { domains: [''] }, { domains: ['x'.repeat(301)] }],
  },
  updateDomain: { ok: [{ group_id: null }, { status: 'active' }], bad: [{}, { group_id: 0 }] },
  createDomainGroup: { ok: [{ name: 'Clients' }], bad: [{ name: '' }, { name: 'x', colour: 'red' }] },
  inviteUser: {
    ok: [{ email: 'new@example.com', role_id: 3 }],
    bad: [{ email: 'not-an-email', role_id: 3 }, { email: 'new@example.com' }],
  },
  setUserStatus: { ok: [{ enabled: false }], bad: [{ enabled: 'no' }] },
  createToken: {
    ok: [{ name: 'ci', scopes: ['domains:read'], expires_in_days: 30 }],
    bad: [
      { name: 'ci', scopes: [] },
      { name: 'ci', scopes: ['domains:read'], expires_in_days: 400 },
      { name: 'ci', scopes: ['admin'] },
    ],
  },
  updateMe: {
    ok: [{ name: 'Ada' }, { language: 'pt-BR' }],
    bad: [{}, { name: 'x'.repeat(51) }, { language: 'english' }],
  },
  convertBimiSvg: { ok: [{ svg_content: '<svg/>' }], bad: [{ svg_content: '' }] },
  inspectBimiVmc: { ok: [{ pem: '-----BEGIN CERTIFICATE-----\nMII…' }], bad: [{ pem: 'hello' }] },
};

describe('edit operations table', () => {
  const names = Object.keys(EDIT_OPERATIONS) as EditOperationName[];

  it('names each operation by its operationId at the same method and path in openapi.yaml', () => {
    for (const name of names) expect(operation(name).operationId).toBe(name);
  });

  it('covers every write operation of the interface the owner can make', () => {
    const writes = new Set<string>();
    for (const [, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (['post', 'patch', 'put', 'delete'].includes(method) && op['x-scope']?.endsWith(':write')) {
          writes.add(op.operationId);
        }
      }
    }
    const missing = [...writes].filter((id) => !(id in EDIT_OPERATIONS));
    expect(missing).toEqual([]);
  });

  it('sends a body exactly where the spec takes one, optional where the spec makes it optional', () => {
    for (const name of names) {
      const spec = operation(name).requestBody;
      const body = EDIT_OPERATIONS[name].body;
      expect(body === null, `${name} body presence`).toBe(spec === undefined);
      if (body && spec)
        expect(body.check(undefined).problems.length === 0, `${name} optional body`).toBe(
          spec.required !== true,
        );
    }
  });

  it('validates bodies the same way as the spec’s request schemas', () => {
    for (const [name, { ok, bad }] of Object.entries(SAMPLES) as [
      EditOperationName,
      { ok: unknown[]; bad: unknown[] },
    ][]) {
      const body = EDIT_OPERATIONS[name].body!;
      for (const sample of ok) {
        expect(specAccepts(name, sample), `spec accepts ${name} ${JSON.stringify(sample)}`).toBe(true);
        expect(body.check(sample).problems, `app accepts ${name} ${JSON.stringify(sample)}`).toEqual([]);
      }
      for (const sample of bad) {
        expect(specAccepts(name, sample), `spec rejects ${name} ${JSON.stringify(sample)}`).toBe(false);
        expect(body.check(sample).problems.length > 0, `app rejects ${name} ${JSON.stringify(sample)}`).toBe(
          true,
        );
      }
    }
  });

  it('refuses unknown fields for every body the spec closes', () => {
    for (const name of names) {
      const body = EDIT_OPERATIONS[name].body;
      if (!body) continue;
      expect(body.check({ surely_unknown_field: 1 }).problems.length > 0, name).toBe(true);
    }
  });

  it('decides record syntax with shared/email-auth (issue 9’s examples)', () => {
    const ip = EDIT_OPERATIONS.addSpfIpAction.body;
    // The document's own pattern takes these; parseIpNetwork does not, so neither does the app.
    expect(specAccepts('addSpfIpAction', { ip: '::::::', type: 'Allow' })).toBe(true);
    expect(specAccepts('addSpfIpAction', { ip: '01.2.3.4', type: 'Allow' })).toBe(true);
    expect(ip.check({ ip: '::::::', type: 'Allow' }).problems.map((p) => p.field)).toEqual(['body.ip']);
    expect(ip.check({ ip: '01.2.3.4', type: 'Allow' }).problems.map((p) => p.field)).toEqual(['body.ip']);
    expect(ip.check({ ip: '2001:db8::/32', type: 'Allow' }).problems).toEqual([]);
    // isDomainName takes the absolute form; the app sends the name as the interface spells it.
    const domain = EDIT_OPERATIONS.createDomain.body.check({ fqdn: 'example.com.' });
    expect(domain.problems).toEqual([]);
    expect(domain.body).toEqual({ fqdn: 'example.com' });
    expect(specAccepts('createDomain', domain.body)).toBe(true);
    // mailto lists and record values go through their email-auth parsers.
    const dmarc = EDIT_OPERATIONS.updateHostedDmarc.body;
    expect(dmarc.check({ rua: 'mailto:not-an-address' }).problems.map((p) => p.field)).toEqual(['body.rua']);
    expect(dmarc.check({ rua: 'mailto:a@example.com,mailto:b@example.org!10m' }).problems).toEqual([]);
    const tls = EDIT_OPERATIONS.updateTlsRpt.body;
    expect(tls.check({ record_value: 'v=TLSRPTv1; rua=ftp://x' }).problems.map((p) => p.field)).toEqual([
      'body.record_value',
    ]);
    const mx = EDIT_OPERATIONS.updateMtaStsPolicy.body;
    expect(
      mx.check({ mode: 'testing', max_age: 86_400, mx: ['mx1.example.com', 'bad host'] }).problems,
    ).toEqual([{ field: 'body.mx[1]', message: expect.stringContaining('bad host') }]);
  });
});
