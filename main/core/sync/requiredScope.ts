import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** method + path template ("GET /domains/{domain_id}/health") → the scope its `x-scope` names. */
export type ScopeTable = ReadonlyMap<string, string>;

const OPENAPI_URL = new URL('../../../shared/api/openapi.yaml', import.meta.url);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

let cached: ScopeTable | undefined;

/** Reads every operation's `x-scope` from shared/api/openapi.yaml (once per process). */
export function loadScopeTable(source: string | URL = OPENAPI_URL): ScopeTable {
  if (cached && source === OPENAPI_URL) return cached;
  const doc = parse(readFileSync(source, 'utf8')) as { paths?: Record<string, Record<string, unknown>> };
  const table = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method] as { 'x-scope'?: unknown } | undefined;
      if (op && typeof op['x-scope'] === 'string')
        table.set(`${method.toUpperCase()} ${path}`, op['x-scope']);
    }
  }
  if (source === OPENAPI_URL) cached = table;
  return table;
}

const SCOPE_IN_TEXT =
  /\b((?:account|me|users|tokens|domains|email-trust|reports|integrations):(?:read|write))\b/;

/**
 * The scope a 403 insufficient_scope refers to: the operation's `x-scope` when we know the operation,
 * else the first scope name found in the server's message, else null.
 */
export function missingScope(
  method: string,
  pathTemplate: string | undefined,
  serverMessage: string,
  table: ScopeTable = loadScopeTable(),
): string | null {
  const fromSpec = pathTemplate ? table.get(`${method.toUpperCase()} ${pathTemplate}`) : undefined;
  if (fromSpec) return fromSpec;
  return SCOPE_IN_TEXT.exec(serverMessage)?.[1] ?? null;
}
