import type { paths } from './types.gen.ts';
import { createTypedApiClient, type ApiClient, type ApiClientOptions } from './typedClient.ts';

export { ApiError } from './apiError.ts';
export { normalizeBaseUrl } from './baseUrl.ts';
export type { ApiEvent } from './events.ts';
export { RateBudget, RateBudgets } from './rateBudget.ts';
export { validationIssues } from './validationIssues.ts';
export type { ApiClientOptions, ApiResult } from './typedClient.ts';

/** The client of the v1 interface, typed from shared/api/openapi.yaml. */
export type AuthwatchApi = ApiClient<paths>;

/**
 * Creates the v1 API client: `await api.get('/domains/{domain_id}/health', { params: { path: { domain_id: 1 } } })`
 * resolves to `{ data, pagination?, requestId, status, envelope }` or rejects with an ApiError.
 */
export function createApiClient(options: ApiClientOptions): AuthwatchApi {
  return createTypedApiClient<paths>(options);
}
