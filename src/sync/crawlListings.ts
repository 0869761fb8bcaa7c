import PQueue from 'p-queue';

import { ApiPaginationError } from '../api/client/index.js';
import { ENDPOINTS } from '../api/endpoints/requests.js';
import { writeTransaction } from '../db/writeTransaction.js';
import { ALL_CATEGORIES } from '../domain/types.js';
import { type CoverageUpdate, recordCoverage } from '../sql/writes/recordCoverage.js';
import { writeEvents } from '../store/writeEvents.js';
import { crawlPlan, type Listing } from './crawlPlan.js';
import { isAbortOf } from './isAbortOf.js';
import type { SyncContext } from './SyncContext.js';

/**
 * Listings paged at once. Each listing is sequential (a page's `end` is the next `start`), so with
 * one at a time the crawl could use only what one round trip allows, far below a large plan's rate.
 */
const LISTINGS_IN_PARALLEL = 4;

/**
 * A listing page rejected whole degrades the run (assessIntake) when it held at least this many
 * records: a short last page of one or two unreadable records is noise, not a changed listing.
 */
export const WHOLE_PAGE_MIN_RECORDS = 5;

/**
 * Pages through GET /events?includeMarkets=true&includeAllMarkets=true for every listing of the
 * crawl plan, committing each page on its own. Sorted by beginAt (ascending, ties by id upstream): unlike volume, it does
 * not reshuffle while we page. Returns the events whose embedded market list came back missing.
 * An abort of the context's signal ends it quietly: committed pages stay, listings not started
 * are skipped, and the pages cut short are not an error. A listing whose paging cannot be followed
 * is given up alone (SyncTotals.cutListings).
 */
export async function crawlListings(ctx: SyncContext): Promise<{ eventId: string; provider: string }[]> {
  const missingMarkets: { eventId: string; provider: string }[] = [];
  const listings = new PQueue({ concurrency: LISTINGS_IN_PARALLEL });
  // The first failure ends the crawl: listings not started yet are skipped, running ones finish.
  let failure: { error: unknown } | undefined;
  for (const listing of crawlPlan(ctx.providers, ctx.categories)) {
    void listings.add(async () => {
      if (failure || ctx.signal?.aborted) return;
      await crawlOne(ctx, listing, missingMarkets).catch((error: unknown) => {
        // Paging that cannot be followed ends that listing only: its pages so far are kept, its
        // coverage stays incomplete, and the run is degraded (assessIntake) rather than failed.
        if (error instanceof ApiPaginationError) ctx.totals.cutListings.push(`${listing.provider}/${listing.category}: ${error.message}`);
        else if (!isAbortOf(error, ctx.signal)) failure ??= { error };
      });
    });
  }
  await listings.onIdle();
  if (failure) throw failure.error;
  return missingMarkets;
}

async function crawlOne(ctx: SyncContext, listing: Listing, missingMarkets: { eventId: string; provider: string }[]): Promise<void> {
  const { provider, category } = listing;
  const pages = ctx.client.iterateEvents(
    {
      provider,
      // Unfiltered rather than `category=all`: the form the live service is known to answer with every event.
      ...(category === ALL_CATEGORIES ? {} : { category }),
      includeMarkets: true,
      // Without it a sports event lists its moneyline market only, and its spread and totals
      // markets would never be stored.
      includeAllMarkets: true,
      sortBy: 'beginAt',
      sortDirection: 'asc',
    },
    // Pages of the client's listing page size (PREDICTION_PAGE_SIZE).
  );
  const scope = { runId: ctx.runId, provider };
  // The listing itself, then each category its events carried: coverage of what was actually seen.
  const coverage = new Map<string, CoverageUpdate>([[category, { category, pages: 0, eventsSeen: 0 }]]);
  await saveCoverage(ctx, scope, { now: ctx.now(), complete: false, listings: [...coverage.values()] });
  for await (const page of pages) {
    const observedAt = ctx.now();
    const counts = await writeEvents(ctx.sql, {
      runId: ctx.runId,
      endpoint: ENDPOINTS.listEvents,
      events: page.items,
      observedAt,
      fence: ctx.fence,
    });
    ctx.totals.add(counts);
    if (page.items.length >= WHOLE_PAGE_MIN_RECORDS && page.items.every((item) => !item.ok)) ctx.totals.allRejectedPages += 1;
    const touched = new Set<CoverageUpdate>();
    const listed = coverage.get(category)!;
    listed.pages += 1;
    listed.eventsSeen += page.items.length;
    touched.add(listed);
    for (const item of page.items) {
      if (!item.ok) continue;
      const seen = item.value.category;
      if (seen !== null && seen !== category) {
        const row = coverage.get(seen) ?? { category: seen, pages: 0, eventsSeen: 0 };
        coverage.set(seen, row);
        if (!touched.has(row)) row.pages += 1;
        row.eventsSeen += 1;
        touched.add(row);
      }
      if (item.value.markets === null || item.value.markets.length === 0) {
        missingMarkets.push({ eventId: item.value.eventId, provider: item.value.provider ?? provider });
      }
    }
    ctx.progress(`crawl ${provider}/${category} page ${page.pageIndex + 1}`);
    if (ctx.signal?.aborted) return;
    await saveCoverage(ctx, scope, { now: observedAt, complete: false, listings: [...touched] });
  }
  await saveCoverage(ctx, scope, { now: ctx.now(), complete: true, listings: [...coverage.values()] });
}

/** Coverage is written like data: under the write lock, fenced by the job's lease, within a deadline. */
function saveCoverage(
  ctx: SyncContext,
  scope: Parameters<typeof recordCoverage>[1],
  update: Parameters<typeof recordCoverage>[2],
): Promise<void> {
  return writeTransaction(ctx.sql, ctx.fence, (tx) => recordCoverage(tx, scope, update));
}
