import { ALL_CATEGORIES, type Category } from '../domain/types.js';

export interface Listing {
  provider: string;
  category: Category;
}

/**
 * Events the crawl asks for per listing page unless PREDICTION_PAGE_SIZE says otherwise: the
 * service's largest `limit` (OpenAPI 2026-07-05). The upstream may answer fewer (paging continues
 * from its `pagination.end` either way); `plan` sizes listings with the configured size.
 */
export const LISTING_PAGE_SIZE = 100;

/**
 * The listings a crawl pages. With `all` among the categories (the default), one unfiltered listing
 * per provider: it is the only one that shows events in categories outside the documented list
 * (the live service sends "climate & science", for one), and it costs the fewest requests, since
 * no event is listed twice. With documented categories only, one listing per provider × category.
 */
export function crawlPlan(providers: readonly string[], categories: readonly string[]): Listing[] {
  const wanted = (categories.includes(ALL_CATEGORIES) ? [ALL_CATEGORIES] : categories) as Category[];
  return providers.flatMap((provider) => wanted.map((category) => ({ provider, category })));
}

/**
 * Requests one crawl of a listing of `eventsListed` events takes at pages of `pageSize`: the
 * upstream says `hasNext: false` on the page that reaches its total, and an empty listing still
 * takes one request to learn that it is empty.
 */
export function listingPages(eventsListed: number, pageSize = LISTING_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(eventsListed / pageSize));
}
