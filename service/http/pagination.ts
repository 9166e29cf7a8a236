/** Page/limit handling shared by every paginated list. */

/** The spec's pagination object. */
export interface Pagination {
  page: number;
  limit: number;
  total: number;
  has_more: boolean;
}

/** Page window ready for SQL: `LIMIT limit OFFSET offset`. */
export interface PageParams {
  page: number;
  limit: number;
  offset: number;
}

/**
 * Page window from an already-validated query. The document's defaults (page 1; limit 25, or 10 on
 * limit-only lists) have been applied by validation; the fallbacks here only serve direct calls.
 */
export function pageParams(query: { page?: unknown; limit?: unknown }, defaultLimit = 25): PageParams {
  const page = typeof query.page === 'number' && query.page >= 1 ? Math.floor(query.page) : 1;
  const limit =
    typeof query.limit === 'number' && query.limit >= 1
      ? Math.min(100, Math.floor(query.limit))
      : defaultLimit;
  return { page, limit, offset: (page - 1) * limit };
}

/** The list-envelope result of one page: `{ data: rows, pagination }`. */
export function paginated<T>(
  total: number,
  rows: T[],
  page: Pick<PageParams, 'page' | 'limit'>,
): { data: T[]; pagination: Pagination } {
  return {
    data: rows,
    pagination: {
      page: page.page,
      limit: page.limit,
      total,
      has_more: page.page * page.limit < total,
    },
  };
}
