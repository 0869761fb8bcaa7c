/**
 * GET /events/closed and GET /events/categories over the world (the service's OpenAPI of
 * 2026-07-05): events that ended or changed since a time, and event counts per category.
 */
import type { SimEvent, SimProvider } from './simTypes.js';
import type { WorldState } from './worldState.js';

/**
 * When the event last changed in a way the feed reports: the latest close or settlement of its
 * markets; null while none of them has closed.
 */
export function lastClosedChangeSec(state: WorldState, event: SimEvent): number | null {
  let latest: number | null = null;
  for (const id of event.marketIds) {
    const m = state.marketsById.get(id)!;
    if (m.status !== 'closed') continue;
    const at = Math.max(m.closeTimeSec, m.settlementTimeSec);
    if (latest === null || at > latest) latest = at;
  }
  return latest;
}

/**
 * The provider's events with a market closed or settled after `sinceSec`, in the order they
 * changed (ties by id): an event that changes again while the feed is paged moves to its end, so
 * paging from the start never skips one.
 */
export function closedSince(state: WorldState, provider: SimProvider, sinceSec: number): SimEvent[] {
  const found: { event: SimEvent; at: number }[] = [];
  for (const event of state.events) {
    if (event.provider !== provider) continue;
    const at = lastClosedChangeSec(state, event);
    if (at !== null && at > sinceSec) found.push({ event, at });
  }
  found.sort((a, b) => a.at - b.at || (a.event.eventId < b.event.eventId ? -1 : a.event.eventId > b.event.eventId ? 1 : 0));
  return found.map((f) => f.event);
}

export interface SimCategoryCount {
  category: string;
  eventCount: number;
  subcategories: { subcategory: string; label: string; eventCount: number; filterSubcategories: string[] }[];
}

/** Counts of `events` per category and non-empty subcategory, categories by count (largest first). */
export function countByCategory(events: readonly SimEvent[]): SimCategoryCount[] {
  const categories = new Map<string, { count: number; subs: Map<string, number> }>();
  for (const e of events) {
    const entry = categories.get(e.category) ?? { count: 0, subs: new Map<string, number>() };
    categories.set(e.category, entry);
    entry.count += 1;
    if (e.subcategory !== '') entry.subs.set(e.subcategory, (entry.subs.get(e.subcategory) ?? 0) + 1);
  }
  return [...categories.entries()]
    .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
    .map(([category, { count, subs }]) => ({
      category,
      eventCount: count,
      subcategories: [...subs.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([subcategory, n]) => ({ subcategory, label: subcategory, eventCount: n, filterSubcategories: [subcategory] })),
    }));
}
