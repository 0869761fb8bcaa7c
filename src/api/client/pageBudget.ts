/** Share of the expected pages, and pages on top, that a listing may take beyond its own `total`. */
export const PAGE_MARGIN = { share: 0.1, pages: 2 } as const;

export interface PageBudget {
  /**
   * Takes a page that said `hasNext: true`: null when the next page may be fetched, otherwise why
   * not. `total` is remembered from the first page: a listing may grow a little while it is paged
   * (the margin), not keep moving its own end.
   */
  next(page: { start: number; end: number; total: number }): string | null;
}

/**
 * How far a listing may page, by what the service says about it: its `total` in pages of the size
 * it actually serves (the smaller of `pageSize` and the smallest advance seen, since a server may
 * cap pages lower), plus 10 % and 2 pages; and no `end` past `total` by more than that margin.
 */
export function pageBudget(pageSize: number): PageBudget {
  let first: { start: number; total: number } | undefined;
  let step = pageSize;
  let pages = 0;
  return {
    next({ start, end, total }) {
      pages += 1;
      first ??= { start, total };
      step = Math.max(1, Math.min(step, end - start));
      const expected = Math.max(1, Math.ceil(Math.max(0, first.total - first.start) / step));
      const allowedPages = expected + Math.ceil(expected * PAGE_MARGIN.share) + PAGE_MARGIN.pages;
      const allowedEnd = first.total + Math.ceil(first.total * PAGE_MARGIN.share) + PAGE_MARGIN.pages * pageSize;
      if (end > allowedEnd) return `runs past pagination.total ${first.total} (at most ${allowedEnd} with the margin)`;
      if (pages >= allowedPages) {
        return `would need page ${pages + 1}, more than the ${allowedPages} that pagination.total ${first.total} allows in pages of ${step}`;
      }
      return null;
    },
  };
}
