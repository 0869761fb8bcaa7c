import type { Checked, Pagination } from '../../domain/types.js';
import { optionalInt } from '../endpoints/paramRules.js';
import { ApiPaginationError } from '../errors.js';

/** One page of a paginated list, as it arrived, minus items already seen on earlier pages. */
export interface Page<T> {
  readonly items: Checked<T>[];
  readonly pagination: Pagination;
  /** 0 for the first page. */
  readonly pageIndex: number;
}

export interface PageOptions {
  /**
  Zero-based index of the first item.

  @default 0
  */
  readonly start?: number;
  /**
  Items asked for per request (`end = start + pageSize`). Every public client uses 20, and the
  server may cap it lower: paging always continues from the answer's `pagination.end`.

  @default 20
  */
  readonly pageSize?: number;
  /**
  Pages after which the iteration stops with ApiPaginationError: a guard against a server that
  keeps saying `hasNext` forever.

  @default 10_000
  */
  readonly maxPages?: number;
}

export type FetchPage<T> = (start: number, end: number) => Promise<{ items: Checked<T>[]; pagination: Pagination }>;

/**
 * Walks a zero-based, half-open paginated list page by page (so a caller can commit a page at a
 * time and memory stays bounded): the next `start` is the previous answer's `pagination.end`,
 * and it stops on `hasNext: false`. Items already yielded (by id, valid or rejected alike) are
 * dropped: lists sorted by volume reshuffle while being paged. Only the ids are remembered.
 */
export async function* paginate<T>(
  endpoint: string,
  fetchPage: FetchPage<T>,
  idOf: (record: T) => string,
  options: PageOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const pageSize = optionalInt(endpoint, 'pageSize', options.pageSize, { min: 1 }) ?? 20;
  const maxPages = optionalInt(endpoint, 'maxPages', options.maxPages, { min: 1 }) ?? 10_000;
  let start = optionalInt(endpoint, 'start', options.start, { min: 0 }) ?? 0;
  const seen = new Set<string>();
  for (let pageIndex = 0; ; pageIndex += 1) {
    if (pageIndex >= maxPages) {
      throw new ApiPaginationError(`GET ${endpoint}: still hasNext after ${maxPages} pages (at start=${start}); giving up`);
    }
    const { items, pagination } = await fetchPage(start, start + pageSize);
    const fresh = items.filter((item) => {
      const id = item.ok ? idOf(item.value) : item.rejection.entityId;
      if (id === null) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    yield { items: fresh, pagination, pageIndex };
    if (!pagination.hasNext) return;
    if (pagination.end <= start) {
      throw new ApiPaginationError(
        `GET ${endpoint}: page at start=${start} did not advance (pagination.end=${pagination.end}, hasNext=true)`,
      );
    }
    start = pagination.end;
  }
}
