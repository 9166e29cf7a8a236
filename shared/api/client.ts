import type { paths } from './types.gen.ts';
import { createTypedApiClient, type ApiClient, type ApiClientOptions } from './typedClient.ts';

export { ApiError, isApiError, type ApiErrorCode, type ApiErrorFields } from './apiError.ts';
export { normalizeBaseUrl } from './baseUrl.ts';
export { systemClock, type ApiClock } from './clock.ts';
export type { Pagination } from './envelope.ts';
export type { ApiEvent, ApiEventHandler } from './events.ts';
export type { PaginateOptions } from './paginate.ts';
export { RateBudget, RateBudgets, type BudgetPriority, type RateBudgetOptions } from './rateBudget.ts';
export { DEFAULT_RETRY, type RetryOptions } from './retryPolicy.ts';
export type { TokenProvider } from './tokenProvider.ts';
export { validationIssues, type ValidationIssue } from './validationIssues.ts';
export type { ApiClient, ApiClientOptions, ApiResult, CallOptions, DataOf } from './typedClient.ts';

/** The client of the v1 interface, typed from shared/api/openapi.yaml. */
export type AuthwatchApi = ApiClient<paths>;

/**
 * Creates the v1 API client: `await api.get('/domains/{domain_id}/health', { params: { path: { domain_id: 1 } } })`
 * resolves to `{ data, pagination?, requestId, status, envelope }` or rejects with an ApiError.
 */
export function createApiClient(options: ApiClientOptions): AuthwatchApi {
  return createTypedApiClient<paths>(options);
}
