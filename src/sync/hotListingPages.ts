import { LIST_EVENTS_LIMIT } from '../api/endpoints/requests.js';

// Apart from readHotListings.ts, which loads the client and the writers: `plan` counts these pages.

/** Events a page of the busiest events asks for at most: the service's largest `limit` (OpenAPI 2026-07-05). */
export const HOT_PAGE_EVENTS = LIST_EVENTS_LIMIT.max;

/** Requests reading `events` busiest events of one provider take. */
export function hotListingPages(events: number): number {
  return Math.ceil(Math.max(0, events) / HOT_PAGE_EVENTS);
}
