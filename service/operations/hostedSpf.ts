/** Operations of this group, keyed by the document's operationId (see service/http/operation.ts). */
import type { OperationHandlers } from '../http/operation.ts';

export const handlers: OperationHandlers = {};
