import { OPERATION_SCOPES } from '../../../shared/api/scopes.gen.ts';

/** method + path template ("GET /domains/{domain_id}/health") → the scope its `x-scope` names. */
export type ScopeTable = ReadonlyMap<string, string>;

/** Every operation's `x-scope`, generated from shared/api/openapi.yaml by `npm run gen:api`. */
export const SCOPE_TABLE: ScopeTable = new Map(Object.entries(OPERATION_SCOPES));

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
  table: ScopeTable = SCOPE_TABLE,
): string | null {
  const fromSpec = pathTemplate ? table.get(`${method.toUpperCase()} ${pathTemplate}`) : undefined;
  if (fromSpec) return fromSpec;
  return SCOPE_IN_TEXT.exec(serverMessage)?.[1] ?? null;
}
