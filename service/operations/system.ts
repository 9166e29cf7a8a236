/** System operations: GET /health, GET /auth/scopes (both public). */
import type { OperationHandlers } from '../http/operation.ts';
import { LEGACY_SCOPES, V1_SCOPES } from '../auth/scopes.ts';

export const handlers: OperationHandlers = {
  getHealth: (_req, ctx) => ({ data: { status: 'ok', version: ctx.config.version } }),

  listScopes: () => ({ data: { v1: [...V1_SCOPES], legacy: [...LEGACY_SCOPES] } }),
};
