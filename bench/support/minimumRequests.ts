/**
 * The fewest requests one sync cycle can make against a simulator world that does not change
 * during the cycle: one poll of the trade feed (its only form), every page of every listing of the
 * crawl plan once, every page of each provider's closed-events feed from `closedSinceSec` (at least
 * one) and one count of categories per provider, plus one order book per open market of what the
 * listings and the feed showed. Listings and the feed embed every market with its metadata, and
 * nothing has left the listing unseen, so no market or event detail is needed.
 *
 * The listings are the sync's own: `crawlPlan(providers, categories)`. With the default categories
 * (`all`) that is one unfiltered listing per provider, i.e. ceil(active events of the provider /
 * page size) pages; with named categories, one listing per provider × category.
 */
import type { SimCategory, SimProvider, World } from '../../src/simulator/index.js';
import { crawlPlan } from '../../src/sync/crawlPlan.js';

export interface RequestBudget {
  /** The listings the plan pages, e.g. `kalshi/all`. */
  listings: string[];
  listingPages: number;
  /** Pages of GET /events/closed, and GET /events/categories (one per provider). */
  feedPages: number;
  categoryCounts: number;
  orderBooks: number;
  /** The trade feed: one poll a cycle. */
  tradePolls: number;
  details: number;
  total: number;
}

/** Events of a closed-feed page the sync asks for (the simulator serves as many). */
const FEED_PAGE = 100;

/** `pageSize`: the smaller of what the client asks (PREDICTION_PAGE_SIZE, 100) and the server's cap. */
export function minimumRequests(
  world: World,
  providers: readonly string[],
  categories: readonly string[],
  pageSize: number,
  closedSinceSec: number,
): RequestBudget {
  let listingPages = 0;
  let feedPages = 0;
  const shown = new Set<string>();
  const plan = crawlPlan(providers, categories);
  for (const provider of providers) {
    const closed = world.closedEvents(provider as SimProvider, closedSinceSec);
    feedPages += Math.max(1, Math.ceil(closed.length / FEED_PAGE));
    for (const e of closed) shown.add(e.eventId);
  }
  for (const { provider, category } of plan) {
    // 'all' is what the simulator answers to an unfiltered listing: every active event of the provider.
    const listed = world.listEvents({
      provider: provider as SimProvider,
      category: category as SimCategory | 'all',
      sortBy: 'beginAt',
      sortDirection: 'asc',
    });
    // An empty listing still takes one request to learn that it is empty.
    listingPages += Math.max(1, Math.ceil(listed.length / pageSize));
    for (const e of listed) shown.add(e.eventId);
  }
  let orderBooks = 0;
  for (const id of shown) orderBooks += world.marketsOf(id).filter((m) => m.status === 'open').length;
  const categoryCounts = providers.length;
  return {
    listings: plan.map((l) => `${l.provider}/${l.category}`),
    listingPages,
    feedPages,
    categoryCounts,
    orderBooks,
    tradePolls: 1,
    details: 0,
    total: 1 + listingPages + feedPages + categoryCounts + orderBooks,
  };
}

/** Requests by endpoint from a run's requests_by_status ({ endpoint: { status: n } }). */
export function requestsByEndpoint(byStatus: Record<string, Record<string, number>>): string {
  return Object.entries(byStatus)
    .map(
      ([endpoint, statuses]) =>
        `${endpoint} ${Object.entries(statuses)
          .map(([s, n]) => `${s}:${n}`)
          .join(' ')}`,
    )
    .join('; ');
}
