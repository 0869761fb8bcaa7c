import { ALL_CATEGORIES, type Category } from '../domain/types.js';

export interface Listing {
  provider: string;
  category: Category;
}

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
