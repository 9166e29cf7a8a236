/**
 * The OpenAPI document covers the interface exactly: every (method, path) of the spec's endpoint tables with the
 * spec's scope, nothing extra unless marked x-inferred, and the auth/rate-limit/error responses the spec promises.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const SPEC_FILE = path.resolve(repoRoot, '../shared/spec/interface-v1.md');
const DOCUMENT_FILE = path.resolve(repoRoot, 'shared/api/openapi.yaml');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Operations the spec names outside its endpoint tables ("alias of GET /account"). */
const SPEC_NAMED_ALIASES = new Set(['GET /account']);

interface SpecOperation {
  key: string; // "GET /domains/{domain_id}"
  scope: string | null; // null = public
  section: string;
}

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, Json>;
  'x-scope'?: string;
  'x-inferred'?: boolean;
  'x-alias-of'?: string;
}

/** Splits a markdown table row into trimmed cells. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

/** Markdown tables of a text: header cells + data rows, with the ### heading they sit under. */
function tables(markdown: string): { heading: string; header: string[]; rows: string[][] }[] {
  const out: { heading: string; header: string[]; rows: string[][] }[] = [];
  let heading = '';
  let current: { heading: string; header: string[]; rows: string[][] } | null = null;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    if (!line.trim().startsWith('|')) {
      current = null;
      continue;
    }
    if (!current) {
      current = { heading, header: cells(line), rows: [] };
      out.push(current);
    } else if (!/^\|[\s|:-]+\|$/.test(line.trim())) {
      current.rows.push(cells(line));
    }
  }
  return out;
}

/** Scope of a table cell or heading: "none (public)" → null, "domains:read" → "domains:read". */
function scopeIn(text: string): string | null | undefined {
  if (/\bpublic\b/.test(text)) return null;
  return /\b([a-z]+:(?:read|write))\b/.exec(text)?.[1];
}

/** The (method, path, scope) rows of the spec's "## Endpoints" tables. */
function specOperations(spec: string): { operations: SpecOperation[]; sections: string[] } {
  const start = spec.indexOf('\n## Endpoints');
  const end = spec.indexOf('\n## ', start + 1);
  if (start < 0) throw new Error('spec has no "## Endpoints" section');
  const section = spec.slice(start, end < 0 ? undefined : end);
  const operations: SpecOperation[] = [];
  const sections: string[] = [];
  for (const table of tables(section)) {
    sections.push(table.heading);
    const scopeColumn = table.header.findIndex((h) => h.toLowerCase() === 'scope');
    for (const row of table.rows) {
      const [first = '', second = ''] = row;
      let key: string;
      if (/^(GET|POST|PUT|PATCH|DELETE)$/.test(first) && second.startsWith('/')) key = `${first} ${second}`;
      else if (first.startsWith('/'))
        key = `GET ${first}`; // health/DNS-timeline tables: "all GET"
      else throw new Error(`unparsed endpoint row under "${table.heading}": ${row.join(' | ')}`);
      const scope = scopeColumn >= 0 ? scopeIn(row[scopeColumn] ?? '') : scopeIn(table.heading);
      if (scope === undefined) throw new Error(`no scope for ${key} under "${table.heading}"`);
      operations.push({ key, scope, section: table.heading });
    }
  }
  return { operations, sections };
}

/** The (status, code) rows of the spec's Errors table. */
function specErrors(spec: string): { status: string; code: string }[] {
  const start = spec.indexOf('\n## Errors');
  const end = spec.indexOf('\n## ', start + 1);
  const table = tables(spec.slice(start, end)).find((t) => t.header[0] === 'HTTP');
  if (!table) throw new Error('spec has no Errors table');
  return table.rows.map(([status = '', code = '']) => ({ status, code }));
}

let doc: Json;
let specOps: SpecOperation[];
let specSections: string[];
const docOps = new Map<string, Operation>();

/** Follows a local $ref ("#/components/...") to its target. */
function deref(node: unknown): Json {
  let current = node as Json;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error('ref cycle');
    const parts = (current.$ref as string).replace(/^#\//, '').split('/');
    current = parts.reduce<Json>((n, p) => n[p] as Json, doc);
  }
  return current;
}

/** error.code values a response schema allows (through $ref, oneOf/anyOf/allOf, const/enum). */
function errorCodes(schemaNode: unknown): Set<string> {
  const codes = new Set<string>();
  const visit = (node: unknown, inError: boolean): void => {
    const s = deref(node);
    for (const k of ['oneOf', 'anyOf', 'allOf'] as const) {
      for (const part of (s[k] as unknown[] | undefined) ?? []) visit(part, inError);
    }
    const props = s.properties as Record<string, unknown> | undefined;
    if (!inError && props?.error) visit(props.error, true);
    if (inError && props?.code) {
      const code = deref(props.code);
      if (typeof code.const === 'string') codes.add(code.const);
      for (const v of (code.enum as unknown[] | undefined) ?? []) if (typeof v === 'string') codes.add(v);
    }
  };
  visit(schemaNode, false);
  return codes;
}

/** error.code values an operation's response for a status allows. */
function responseCodes(op: Operation, status: string): Set<string> {
  const response = op.responses?.[status];
  if (!response) return new Set();
  const content = deref(response).content as Record<string, { schema?: unknown }> | undefined;
  return errorCodes(content?.['application/json']?.schema);
}

beforeAll(() => {
  const spec = readFileSync(SPEC_FILE, 'utf8');
  ({ operations: specOps, sections: specSections } = specOperations(spec));
  doc = parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Json;
  for (const [p, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const m of METHODS) {
      if (item[m]) docOps.set(`${m.toUpperCase()} ${p}`, item[m] as Operation);
    }
  }
  const schemas = Object.values((doc.components as Json).schemas as Record<string, Json>);
  const inferredOps = [...docOps.values()].filter((o) => o['x-inferred'] === true).length;
  console.log(
    `spec operations: ${specOps.length}, document operations: ${docOps.size}, ` +
      `x-inferred operations: ${inferredOps}, x-inferred schemas: ${schemas.filter((s) => s['x-inferred'] === true).length}`,
  );
});

describe('openapi.yaml covers interface-v1.md', () => {
  it('reads an endpoint table under every endpoint section of the spec, without duplicate rows', () => {
    const spec = readFileSync(SPEC_FILE, 'utf8');
    const endpointsPart = spec.slice(spec.indexOf('\n## Endpoints'), spec.indexOf('\n## Authentication'));
    const headings = [...endpointsPart.matchAll(/^### (.+)$/gm)]
      .map((m) => m[1]!)
      .filter((h) => !/^Gaps/.test(h));
    expect(headings.length).toBeGreaterThan(0);
    for (const h of headings) {
      expect(specSections, `no endpoint table read under "${h}"`).toContain(h);
      expect(specOps.filter((o) => o.section === h).length, `no rows under "${h}"`).toBeGreaterThan(0);
    }
    const keys = specOps.map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has every (method, path) of the spec', () => {
    const missing = specOps.filter((o) => !docOps.has(o.key)).map((o) => o.key);
    expect(missing).toEqual([]);
  });

  it('adds no operation the spec lacks unless it is x-inferred (or the alias the spec names)', () => {
    const specKeys = new Set(specOps.map((o) => o.key));
    const extra = [...docOps.entries()]
      .filter(([key, op]) => !specKeys.has(key) && op['x-inferred'] !== true && !SPEC_NAMED_ALIASES.has(key))
      .map(([key]) => key);
    expect(extra).toEqual([]);
  });

  it('gives the spec alias the same scope and payload as the operation it aliases', () => {
    const ids = new Map([...docOps.values()].map((op) => [op.operationId, op]));
    for (const key of SPEC_NAMED_ALIASES) {
      const alias = docOps.get(key);
      expect(alias, key).toBeDefined();
      const target = ids.get(alias!['x-alias-of']);
      expect(target, `${key} x-alias-of`).toBeDefined();
      expect(alias!['x-scope']).toBe(target!['x-scope']);
      expect(alias!.responses?.['200']).toEqual(target!.responses?.['200']);
    }
  });

  it("uses the spec's scope as x-scope, and marks public operations security: []", () => {
    const wrong: string[] = [];
    for (const o of specOps) {
      const op = docOps.get(o.key);
      if (!op) continue;
      if (o.scope === null) {
        if (op['x-scope'] !== undefined || !Array.isArray(op.security) || op.security.length !== 0)
          wrong.push(o.key);
      } else if (op['x-scope'] !== o.scope) {
        wrong.push(`${o.key}: spec ${o.scope}, document ${String(op['x-scope'])}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('openapi.yaml operations', () => {
  it('have a unique camelCase operationId', () => {
    const ids = [...docOps.values()].map((op) => op.operationId);
    const bad = [...docOps.entries()]
      .filter(([, op]) => typeof op.operationId !== 'string' || !/^[a-z][a-zA-Z0-9]*$/.test(op.operationId))
      .map(([key]) => key);
    expect(bad).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('name an x-scope whenever they are protected, and list 401, 403 and 429', () => {
    const globalSecurity = doc.security as unknown[];
    const problems: string[] = [];
    for (const [key, op] of docOps) {
      const security = op.security ?? globalSecurity;
      const isPublic = security.length === 0;
      if (isPublic) continue;
      if (typeof op['x-scope'] !== 'string') problems.push(`${key}: no x-scope`);
      for (const status of ['401', '403', '429']) {
        if (!op.responses?.[status]) problems.push(`${key}: no ${status}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answer 401 with both token codes and 403 with the three access codes on every protected operation', () => {
    const problems: string[] = [];
    for (const [key, op] of docOps) {
      if (!op['x-scope']) continue;
      const c401 = responseCodes(op, '401');
      const c403 = responseCodes(op, '403');
      for (const code of ['missing_api_token', 'invalid_api_token'])
        if (!c401.has(code)) problems.push(`${key} 401 ${code}`);
      for (const code of ['api_access_disabled', 'api_plan_not_eligible', 'insufficient_scope']) {
        if (!c403.has(code)) problems.push(`${key} 403 ${code}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('can express every row of the spec Errors table with its exact status and code', () => {
    const errors = specErrors(readFileSync(SPEC_FILE, 'utf8'));
    expect(errors.length).toBeGreaterThan(0);
    const missing = errors.filter(
      ({ status, code }) => ![...docOps.values()].some((op) => responseCodes(op, status).has(code)),
    );
    expect(missing).toEqual([]);
  });

  it('restrict error codes to the one each status stands for (no catch-all string codes)', () => {
    const problems: string[] = [];
    for (const [key, op] of docOps) {
      for (const status of Object.keys(op.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        if (responseCodes(op, status).size === 0) problems.push(`${key} ${status}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
