/**
 * Zero-based, half-open pages: [start, end). The response's `end` is the next `start`. The
 * server caps a page at `maxPageSize` and returns fewer items than asked without saying so,
 * as upstream may. Where the spec is silent: end <= start gives an empty page whose `end`
 * equals `start`; a start past the total gives an empty page with hasNext false.
 */
import type { PaginationWire } from '../../wire/pagination.js';

export function paginate<T>(
  items: readonly T[],
  start: number | undefined,
  end: number | undefined,
  maxPageSize: number,
): { page: T[]; pagination: PaginationWire } {
  const s = start ?? 0;
  const wanted = end ?? s + maxPageSize;
  const e = Math.max(s, Math.min(wanted, s + maxPageSize, items.length));
  return {
    page: items.slice(s, e),
    pagination: { start: s, end: e, total: items.length, hasNext: e < items.length },
  };
}
