import type { Checked, Pagination } from '../../domain/types.js';
import { optionalInt } from '../endpoints/paramRules.js';
import { ApiPaginationError } from '../errors.js';
import { pageBudget } from './pageBudget.js';

/** One page of a paginated list, as it arrived, minus items already seen on earlier pages. */
export interface Page<T, M = undefined> {
  readonly items: Checked<T>[];
  readonly pagination: Pagination;
  /** 0 for the first page. */
  readonly pageIndex: number;
  /** What else the page's answer said (GET /events/closed: when it was generated). */
  readonly meta?: M;
}

export interface PageOptions {
  /**
  Zero-based index of the first item.

  @default 0
  */
  readonly start?: number;
  /**
  Items asked for per request (`end = start + pageSize`, or `limit` where the endpoint takes one).
  The server may answer fewer: paging always continues from the answer's `pagination.end`.

  @default 20
  */
  readonly pageSize?: number;
  /**
  Hard ceiling on pages, whatever `pagination.total` says. The real bound is the one the service
  itself gives (see pageBudget): this only caps a listing whose `total` is itself absurd.

  @default 10_000
  */
  readonly maxPages?: number;
}

export type FetchPage<T, M = undefined> = (
  start: number,
  end: number,
) => Promise<{ items: Checked<T>[]; pagination: Pagination; meta?: M }>;

/**
 * Walks a zero-based, half-open paginated list page by page (so a caller can commit a page at a
 * time and memory stays bounded): the next `start` is the previous answer's `pagination.end`,
 * and it stops on `hasNext: false`. Items already yielded (by id, valid or rejected alike) are
 * dropped: lists sorted by volume reshuffle while being paged. Only the ids are remembered.
 *
 * A listing that will not end is an upstream fault (ApiPaginationError), found before the next
 * request is built from what it said: more pages than its own `total` allows (pageBudget), an
 * `end` that does not advance, runs far past the page asked for or past `total`, or a page made
 * only of ids this listing already gave.
 */
export async function* paginate<T, M = undefined>(
  endpoint: string,
  fetchPage: FetchPage<T, M>,
  idOf: (record: T) => string,
  options: PageOptions = {},
): AsyncGenerator<Page<T, M>, void, undefined> {
  const pageSize = optionalInt(endpoint, 'pageSize', options.pageSize, { min: 1 }) ?? 20;
  const maxPages = optionalInt(endpoint, 'maxPages', options.maxPages, { min: 1 }) ?? 10_000;
  let start = optionalInt(endpoint, 'start', options.start, { min: 0 }) ?? 0;
  const fault = (what: string) => new ApiPaginationError(`GET ${endpoint}: ${what}; giving up on this listing`);
  const seen = new Set<string>();
  const budget = pageBudget(pageSize);
  for (let pageIndex = 0; ; pageIndex += 1) {
    if (pageIndex >= maxPages) throw fault(`still hasNext after ${maxPages} pages (at start=${start})`);
    const { items, pagination, meta } = await fetchPage(start, start + pageSize);
    const fresh = items.filter((item) => {
      const id = item.ok ? idOf(item.value) : item.rejection.entityId;
      if (id === null) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    yield meta === undefined ? { items: fresh, pagination, pageIndex } : { items: fresh, pagination, pageIndex, meta };
    if (!pagination.hasNext) return;
    const { end } = pagination;
    const at = `page at start=${start} (pagination.end=${end}, total=${pagination.total}, hasNext=true)`;
    if (end <= start) throw fault(`${at} did not advance`);
    // The service may send more than asked (it answered 4 events to end=1), never much more than it sent.
    if (end - start > 2 * Math.max(pageSize, items.length)) throw fault(`${at} jumps past the ${items.length} items it held`);
    if (items.length > 0 && fresh.length === 0) throw fault(`${at} held only items this listing already gave`);
    const limit = budget.next({ start, end, total: pagination.total });
    if (limit !== null) throw fault(`${at} ${limit}`);
    start = end;
  }
}
