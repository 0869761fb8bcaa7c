/**
 * The /events listing: active events of one provider, filtered and sorted. Sorted lists are
 * cached per query for one world version, so paging through 100k markets costs one sort per
 * query shape (until the world changes), not one per request.
 */
import type { SimCategory, SimEvent, SimProvider } from './simTypes.js';
import { volume24hr } from './volume24hr.js';
import { isLive, isNew, isTrending } from './wire.js';
import type { WorldState } from './worldState.js';

/** `volume24hr` is the live service's default sort (its OpenAPI of 2026-07-05); here the default stays `volume`. */
export type SortBy = 'volume' | 'volume24hr' | 'beginAt';
export type SortDirection = 'asc' | 'desc';
export type ListFilter = 'new' | 'live' | 'trending';

export interface EventQuery {
  provider: SimProvider;
  /** 'all' = every category. */
  category: SimCategory | 'all';
  /** Exact match, case-insensitive. */
  subcategory?: string | undefined;
  /** Default 'volume' (the spec names no default; upstream listings look volume-ranked). */
  sortBy?: SortBy | undefined;
  /** Default desc for the volumes, asc for beginAt (spec 4.1). */
  sortDirection?: SortDirection | undefined;
  filter?: ListFilter | undefined;
}

const CACHE_ENTRIES = 32;

const byId = (a: SimEvent, b: SimEvent) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0);

function comparator(state: WorldState, sortBy: SortBy, direction: SortDirection): (a: SimEvent, b: SimEvent) => number {
  const sign = direction === 'asc' ? 1 : -1;
  if (sortBy === 'volume') return (a, b) => sign * (a.volumeMicroUsd - b.volumeMicroUsd) || byId(a, b);
  if (sortBy === 'volume24hr') {
    // Each event's figure once per sort: it is summed over the event's markets.
    const day = new Map<SimEvent, number>();
    const of = (e: SimEvent) => day.get(e) ?? day.set(e, volume24hr(state, e)).get(e)!;
    return (a, b) => sign * (of(a) - of(b)) || byId(a, b);
  }
  // Events without a start sort last in both directions; ties (and nulls) by id, so it is stable.
  return (a, b) => {
    if (a.beginAtSec === null || b.beginAtSec === null) {
      return (a.beginAtSec === null ? 1 : 0) - (b.beginAtSec === null ? 1 : 0) || byId(a, b);
    }
    return sign * (a.beginAtSec - b.beginAtSec) || byId(a, b);
  };
}

function matcher(q: EventQuery, nowSec: number): (e: SimEvent) => boolean {
  const sub = q.subcategory?.toLowerCase();
  return (e) =>
    e.isActive &&
    e.provider === q.provider &&
    (q.category === 'all' || e.category === q.category) &&
    (sub === undefined || e.subcategory.toLowerCase() === sub) &&
    (q.filter === undefined ||
      (q.filter === 'new' && isNew(e, nowSec)) ||
      (q.filter === 'live' && isLive(e, nowSec)) ||
      (q.filter === 'trending' && isTrending(e, nowSec)));
}

export class ListingCache {
  private readonly cache = new Map<string, { version: number; events: readonly SimEvent[] }>();

  constructor(private readonly state: WorldState) {}

  /** The full ordered result of the query (callers slice pages from it; do not mutate). */
  list(q: EventQuery): readonly SimEvent[] {
    const sortBy = q.sortBy ?? 'volume';
    const direction = q.sortDirection ?? (sortBy === 'beginAt' ? 'asc' : 'desc');
    const key = JSON.stringify([q.provider, q.category, q.subcategory?.toLowerCase() ?? null, sortBy, direction, q.filter ?? null]);
    const hit = this.cache.get(key);
    if (hit && hit.version === this.state.version) {
      this.cache.delete(key); // refresh LRU position
      this.cache.set(key, hit);
      return hit.events;
    }
    const events = this.state.events.filter(matcher(q, this.state.nowSec)).sort(comparator(this.state, sortBy, direction));
    this.cache.delete(key);
    this.cache.set(key, { version: this.state.version, events });
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return events;
  }
}
