import type { Pagination } from '../domain/types.js';
import type { PaginationWire } from '../wire/pagination.js';

/** Copies the four spec fields only, so nothing unvalidated rides along. */
export function normalizePagination(wire: PaginationWire): Pagination {
  return { start: wire.start, end: wire.end, total: wire.total, hasNext: wire.hasNext };
}
