import PQueue from 'p-queue';
import type { PredictionClient } from '../api/client/index.js';
import type { Sql } from '../db/connect.js';
import type { Category } from '../domain/types.js';
import { recordCoverage } from '../sql/recordCoverage.js';
import { writeEvents } from '../store/writeEvents.js';
import type { SyncContext } from './SyncContext.js';

/**
 * Listings paged at once. Each listing is sequential (a page's `end` is the next `start`), so with
 * one at a time the crawl could use only what one round trip allows, far below a large plan's rate.
 */
const LISTINGS_IN_PARALLEL = 4;

/**
 * Pages through GET /events?includeMarkets=true for every provider × category, committing each
 * page on its own. Sorted by beginAt (ascending, ties by id upstream): unlike volume, it does not
 * reshuffle while we page. Returns the events whose embedded market list came back missing.
 */
export async function crawlListings(ctx: SyncContext): Promise<{ eventId: string; provider: string }[]> {
  const missingMarkets: { eventId: string; provider: string }[] = [];
  const listings = new PQueue({ concurrency: LISTINGS_IN_PARALLEL });
  // The first failure ends the crawl: listings not started yet are skipped, running ones finish.
  let failure: { error: unknown } | undefined;
  for (const provider of ctx.providers) {
    for (const category of ctx.categories) {
      void listings.add(async () => {
        if (failure || ctx.signal?.aborted) return;
        await crawlOne(ctx, ctx.client, ctx.sql, provider, category as Category, missingMarkets).catch((error: unknown) => {
          failure ??= { error };
        });
      });
    }
  }
  await listings.onIdle();
  if (failure) throw failure.error;
  return missingMarkets;
}

async function crawlOne(
  ctx: SyncContext,
  client: PredictionClient,
  sql: Sql,
  provider: string,
  category: Category,
  missingMarkets: { eventId: string; provider: string }[],
): Promise<void> {
  const pages = client.iterateEvents({
    provider: provider as 'kalshi' | 'polymarket',
    category,
    includeMarkets: true,
    sortBy: 'beginAt',
    sortDirection: 'asc',
  });
  const scope = { runId: ctx.runId, provider, category };
  let pageCount = 0;
  let eventsSeen = 0;
  await recordCoverage(sql, scope, { now: ctx.now(), pages: 0, eventsSeen: 0, complete: false });
  for await (const page of pages) {
    const observedAt = ctx.now();
    const counts = await writeEvents(sql, { runId: ctx.runId, endpoint: '/events', events: page.items, observedAt, fence: ctx.fence });
    ctx.totals.add(counts);
    pageCount += 1;
    eventsSeen += page.items.length;
    for (const item of page.items) {
      if (item.ok && (item.value.markets === null || item.value.markets.length === 0)) {
        missingMarkets.push({ eventId: item.value.eventId, provider: item.value.provider ?? provider });
      }
    }
    ctx.progress(`crawl ${provider}/${category} page ${page.pageIndex + 1}`);
    if (ctx.signal?.aborted) return;
    await recordCoverage(sql, scope, { now: observedAt, pages: pageCount, eventsSeen, complete: false });
  }
  await recordCoverage(sql, scope, { now: ctx.now(), pages: pageCount, eventsSeen, complete: true });
}
