import type { ApiResult } from '../../../shared/api/typedClient.ts';
import type { BudgetPriority } from '../../../shared/api/rateBudget.ts';
import type { PaginateOptions } from '../../../shared/api/paginate.ts';

/** Arguments of one call, path templates filled through `params.path`. */
export interface LooseCallInit {
  params?: { path?: Record<string, string | number>; query?: Record<string, string | number | boolean> };
  body?: unknown;
  priority?: BudgetPriority;
  requestId?: string;
  signal?: AbortSignal;
}

/**
 * The API client as the engine uses it: path templates chosen at run time from the signal catalog and
 * the edit table, so the call sites are typed by those tables rather than by the generated path types.
 */
export interface LooseApi {
  readonly baseUrl: string;
  get(path: string, init?: LooseCallInit): Promise<ApiResult<unknown>>;
  post(path: string, init?: LooseCallInit): Promise<ApiResult<unknown>>;
  patch(path: string, init?: LooseCallInit): Promise<ApiResult<unknown>>;
  delete(path: string, init?: LooseCallInit): Promise<ApiResult<unknown>>;
  paginate(
    path: string,
    init?: LooseCallInit,
    options?: PaginateOptions,
  ): AsyncGenerator<unknown, void, undefined>;
}
