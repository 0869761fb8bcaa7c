import { ApiPaginationError } from '../api/client/index.js';
import { ENDPOINTS } from '../api/endpoints/requests.js';
import { writeEvents } from '../store/writeEvents.js';
import { HOT_PAGE_EVENTS, hotListingPages } from './hotListingPages.js';
import { isAbortOf } from './isAbortOf.js';
import type { SyncContext } from './SyncContext.js';

export interface HotListings {
  pages: number;
  marketIds: string[];
}

// Also here for the callers of these two: hotListingPages.ts holds them, apart from the work.
export { HOT_PAGE_EVENTS, hotListingPages };

/**
 * Reads each provider's `events` busiest events (GET /events sorted by volume24hr, with their
 * markets, in pages of up to HOT_PAGE_EVENTS) and stores them as the crawl does: events, markets, and prices
 * through the change-only pricing writer. A market whose listed top of book moved since its book
 * was last fetched is then due first in the sweep's order (bookSchedule.ts), so the markets that
 * change most give that signal every sweep rather than once a crawl. Returns the pages read and
 * the markets they listed, busiest event first.
 *
 * Coverage is left to the crawl: these pages list the busiest events only. A listing whose paging
 * cannot be followed is a notice, not a failure: the sweep goes on without it. An abort of the
 * context's signal ends it quietly, the pages committed so far kept.
 */
export async function readHotListings(ctx: SyncContext, events: number): Promise<HotListings> {
  const read: HotListings = { pages: 0, marketIds: [] };
  if (events <= 0) return read;
  for (const provider of ctx.providers) {
    if (ctx.signal?.aborted) return read;
    try {
      const listing = ctx.client.iterateEvents(
        {
          provider,
          includeMarkets: true,
          // As the crawl: without it a sports event lists its moneyline market only.
          includeAllMarkets: true,
          sortBy: 'volume24hr',
          sortDirection: 'desc',
        },
        { pageSize: Math.min(events, HOT_PAGE_EVENTS) },
      );
      let listed = 0;
      for await (const page of listing) {
        ctx.totals.add(
          await writeEvents(ctx.sql, {
            runId: ctx.runId,
            endpoint: ENDPOINTS.listEvents,
            events: page.items,
            observedAt: ctx.now(),
            fence: ctx.fence,
          }),
        );
        read.pages += 1;
        listed += page.items.length;
        for (const item of page.items) if (item.ok) for (const m of item.value.markets ?? []) read.marketIds.push(m.marketId);
        if (listed >= events || page.pageIndex + 1 >= hotListingPages(events) || ctx.signal?.aborted) break;
      }
    } catch (error) {
      if (isAbortOf(error, ctx.signal)) return read;
      if (!(error instanceof ApiPaginationError)) throw error;
      ctx.totals.notice(`the busiest events of ${provider} could not be paged: ${error.message}`);
    }
  }
  return read;
}
