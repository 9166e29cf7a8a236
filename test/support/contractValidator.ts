/**
 * Checks responses against the document: the status must be one the operation documents, the JSON body
 * must match that response's schema (Ajv 2020 over the document itself), and the headers every response
 * carries must be there (X-Request-Id UUID, X-RateLimit-*, Retry-After on 429).
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { documentRuntime } from '../../service/openapi/documentRuntime.ts';
import type { DocumentOperation } from '../../service/openapi/document.ts';
import { absolutize, createDocumentAjv } from '../../service/openapi/validators.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Finds operations by concrete path (static segments win over parameters: /domains/bulk). */
export function matchOperation(method: string, path: string): DocumentOperation | undefined {
  const candidates = documentRuntime().operations.filter((op) => op.method === method.toUpperCase());
  const segments = path.split('/').filter(Boolean);
  let best: { op: DocumentOperation; params: number } | undefined;
  for (const op of candidates) {
    const tpl = op.path.split('/').filter(Boolean);
    if (tpl.length !== segments.length) continue;
    let params = 0;
    const ok = tpl.every((t, i) => {
      if (t.startsWith('{')) {
        params++;
        return segments[i] !== '';
      }
      return t === segments[i];
    });
    if (ok && (!best || params < best.params)) best = { op, params };
  }
  return best?.op;
}

/** Collects contract violations of the responses it is shown. */
export class ContractValidator {
  readonly violations: string[] = [];
  private ajv: Ajv2020 | null = null;
  private readonly compiled = new Map<string, ValidateFunction>();

  /** Checks one response of `method path` (path without base prefix or query). */
  check(method: string, path: string, status: number, headers: Headers, body: unknown): void {
    const where = `${method} ${path} → ${status}`;
    const requestId = headers.get('x-request-id');
    if (!requestId || !UUID.test(requestId))
      this.violations.push(`${where}: X-Request-Id header missing or not a UUID`);
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      if (!/^\d+$/.test(headers.get(h) ?? '')) this.violations.push(`${where}: ${h} header missing`);
    }
    if (status === 429 && !/^\d+$/.test(headers.get('retry-after') ?? '')) {
      this.violations.push(`${where}: Retry-After header missing`);
    }
    const op = matchOperation(method, path);
    if (!op) return; // not an operation of the document (unknown route): nothing to compare with
    if (!op.responses.has(String(status))) {
      this.violations.push(`${where}: status ${status} is not documented for ${op.operationId}`);
      return;
    }
    const schema = op.responses.get(String(status));
    if (!schema) return;
    const validate = this.validatorFor(op, String(status), schema);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
        .join('; ');
      this.violations.push(`${where}: body does not match ${op.operationId} ${status}: ${errors}`);
    }
    if (body && typeof body === 'object' && 'error' in body) {
      const rid = (body as { error: { request_id?: unknown } }).error.request_id;
      if (rid !== requestId)
        this.violations.push(`${where}: error.request_id differs from the X-Request-Id header`);
    }
  }

  private validatorFor(
    op: DocumentOperation,
    status: string,
    schema: Record<string, unknown>,
  ): ValidateFunction {
    const key = `${op.operationId} ${status}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      this.ajv ??= createDocumentAjv(documentRuntime().doc, { coerceTypes: false, useDefaults: false });
      fn = this.ajv.compile(absolutize(schema) as Record<string, unknown>);
      this.compiled.set(key, fn);
    }
    return fn;
  }
}
