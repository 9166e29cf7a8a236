/** The caller of a protected operation. */
import type { AuthContext, OperationRequest } from './operation.ts';
import { ServiceError } from './serviceError.ts';

/**
 * `req.auth`, which the pipeline guarantees on every operation with an `x-scope`; throws 401 if a handler
 * of a public operation asks for it by mistake.
 */
export function requireAuth(req: Pick<OperationRequest, 'auth'>): AuthContext {
  if (!req.auth) throw new ServiceError(401, 'missing_api_token', 'The X-Api-Token header is required.');
  return req.auth;
}
