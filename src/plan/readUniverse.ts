import type { Queryable } from '../sql/core/queryable.js';
import { selectClosedFeedWatermarks } from '../sql/targets/selectClosedFeedWatermarks.js';
import { selectListingSizes } from '../sql/targets/selectListingSizes.js';
import { selectOrderBookTargets, selectStaleEvents } from '../sql/targets/selectSyncTargets.js';
import { crawlPlan, LISTING_PAGE_SIZE, listingPages } from '../sync/crawlPlan.js';
import { DETAILS_CLOSING_WINDOW, detailsSeenSince } from '../sync/jobCatalog.js';
import { selectMarketDetailTargets } from '../sync/marketDetailTargets.js';
import { detailRequests } from './detailRequests.js';

/** One listing of the crawl plan, as its latest complete crawl saw it. */
export interface ListingUniverse {
  provider: string;
  category: string;
  /** Events the latest complete crawl listed; null when none completed yet. */
  eventsListed: number | null;
  /** Requests the next crawl takes, at the crawl's page size (one, unknown, for a listing never crawled to its end). */
  pages: number;
  /** Pages the latest complete crawl took: more than `pages` when the upstream served smaller pages. */
  pagesLastCrawl: number | null;
  lastCrawlStartedAt: Date | null;
}

/** What the jobs would work on, read now through the selections the jobs themselves make. */
export interface Universe {
  at: Date;
  listings: ListingUniverse[];
  /**
   * Requests of the crawl beside its listings: per provider, the closed-events feed's pages (as
   * many as its last complete read took; 1 before any) and one count of categories.
   */
  feedRequests: number;
  /** Start of the latest complete crawl: what the details job counts as having left the listings since. */
  seenSince: Date | null;
  /** What the next details run fetches: event details, and market details after them. */
  detailEvents: number;
  detailMarkets: number;
  /** Open markets: what each sweep selects, in its order. */
  openMarkets: number;
  /** Of those, books due now: never fetched, or older than the max age. */
  dueBooks: number;
}

export interface UniverseRequest {
  providers: readonly string[];
  categories: readonly string[];
  orderBookMaxAgeSec: number;
  now: Date;
  /** PREDICTION_PAGE_SIZE: events per listing page. Default LISTING_PAGE_SIZE. */
  pageSize?: number;
}

/**
 * Reads the universe the jobs would meet, through the jobs' own pieces: the crawl plan and its page
 * size, the details job's "seen since" and target selections (with its closing window), and the
 * sweep's selection of open markets in priority order. Read-only.
 */
export async function readUniverse(sql: Queryable, request: UniverseRequest): Promise<Universe> {
  const { providers, now } = request;
  const sizes = await selectListingSizes(sql, crawlPlan(providers, request.categories));
  const listings = sizes.map((s) => ({
    provider: s.provider,
    category: s.category,
    eventsListed: s.eventsSeen,
    pages: listingPages(s.eventsSeen ?? 0, request.pageSize ?? LISTING_PAGE_SIZE),
    pagesLastCrawl: s.pages,
    lastCrawlStartedAt: s.startedAt,
  }));

  const feedPages = new Map((await selectClosedFeedWatermarks(sql, providers)).map((w) => [w.provider, Math.max(1, w.pages)]));
  const feedRequests = providers.reduce((n, p) => n + (feedPages.get(p) ?? 1) + 1, 0);

  const seenSince = await detailsSeenSince(sql);
  let detail = { events: 0, markets: 0 };
  if (seenSince) {
    const events = await selectStaleEvents(sql, providers, seenSince);
    const markets = await selectMarketDetailTargets(sql, providers, seenSince, { ...DETAILS_CLOSING_WINDOW, now: () => now });
    detail = detailRequests(events, markets);
  }

  const books = await selectOrderBookTargets(sql, providers, { limit: null, maxAgeSec: request.orderBookMaxAgeSec, now });
  return {
    at: now,
    listings,
    feedRequests,
    seenSince,
    detailEvents: detail.events,
    detailMarkets: detail.markets,
    openMarkets: books.length,
    dueBooks: books.reduce((n, b) => n + (b.due ? 1 : 0), 0),
  };
}
