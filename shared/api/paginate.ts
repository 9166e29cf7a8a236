import { ApiError } from './apiError.ts';

/** One fetched page: its items and the list envelope's pagination object as sent. */
export interface FetchedPage<T> {
  data: T[];
  pagination?: unknown;
  requestId: string;
}

export interface PaginateOptions {
  /** Items per page (default 100, the spec's maximum). */
  limit?: number;
  /** First page to fetch (default 1). */
  startPage?: number;
  /** Safety stop for a server that never ends a list (default 1000 pages). */
  maxPages?: number;
}

function field(pagination: unknown, name: string): unknown {
  return typeof pagination === 'object' && pagination !== null
    ? (pagination as Record<string, unknown>)[name]
    : undefined;
}

/**
 * Yields every item of a paginated list, page by page. It stops when the server says `has_more: false`,
 * and also — so a wrong or lying server cannot loop it forever — on an empty page, once `total` items
 * were seen, when there is no pagination object, and after `maxPages` (then it throws). An answer that
 * names another page than the one asked for is malformed (it throws).
 */
export async function* paginate<T>(
  fetchPage: (page: number, limit: number) => Promise<FetchedPage<T>>,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const limit = options.limit ?? 100;
  const maxPages = options.maxPages ?? 1000;
  let page = options.startPage ?? 1;
  // Items on the pages before the first one fetched count toward `total` too.
  let seen = (page - 1) * limit;
  for (let fetched = 0; ; fetched++) {
    if (fetched >= maxPages) {
      throw new ApiError({
        status: 0,
        code: 'malformed_response',
        message: `The server still reported more items after ${maxPages} pages; stopped reading the list.`,
        requestId: '',
        retryable: false,
      });
    }
    const result = await fetchPage(page, limit);
    // An answer for another page is no answer to this one: its items would be taken for page `page`'s, and
    // a server that numbers pages at random could keep the list going without end.
    const answered = field(result.pagination, 'page');
    if (typeof answered === 'number' && answered !== page) {
      throw new ApiError({
        status: 200,
        code: 'malformed_response',
        message: `The server answered page ${answered} when page ${page} was asked for; stopped reading the list.`,
        requestId: result.requestId,
        retryable: false,
      });
    }
    yield* result.data;
    seen += result.data.length;

    const pagination = result.pagination;
    if (result.data.length === 0 || pagination === undefined || pagination === null) return;
    const total = field(pagination, 'total');
    if (typeof total === 'number' && seen >= total) return;
    const hasMore = field(pagination, 'has_more');
    if (hasMore === false) return;
    // Without has_more, a full page is the only hint that another may follow.
    if (hasMore !== true && result.data.length < limit) return;
    page += 1;
  }
}
