import { ApiNotFoundError, ApiPaginationError } from '../api/client/index.js';
import { ENDPOINTS } from '../api/endpoints/requests.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import { writeTransaction } from '../db/writeTransaction.js';
import type { Checked, Event } from '../domain/types.js';
import { selectClosedFeedWatermarks } from '../sql/targets/selectClosedFeedWatermarks.js';
import { saveClosedFeedWatermark } from '../sql/writes/saveClosedFeedWatermark.js';
import { writeEvents } from '../store/writeEvents.js';
import { isAbortOf } from './isAbortOf.js';
import type { SyncContext } from './SyncContext.js';

/**
 * Seconds the feed is read again before the previous read's `timestamp`: an event the service
 * updated just before it answered, but indexed just after, is still caught. Reading it twice
 * writes nothing twice (change-only history).
 */
export const CLOSED_FEED_OVERLAP_SEC = 300;

/** Events GET /events/closed is asked for per page (`end - start`; the feed takes no `limit`). */
export const CLOSED_FEED_PAGE_SIZE = 100;

/**
 * Reads GET /events/closed for every provider, from its watermark (the previous complete read's
 * `timestamp` minus CLOSED_FEED_OVERLAP_SEC; the service's own default, the last 24 hours, before
 * the first), paged to its end and written like a listing page: events with their markets, state
 * history, results and settlement times. It is the only place an event that opened and ended
 * between two crawls appears, and it explains most of what left the listing, so the detail
 * refreshes that follow fetch only what it did not show.
 *
 * The watermark moves only once a provider's feed was paged to its end: a read cut short (abort,
 * crash, paging that cannot be followed) is read again from the same point next time.
 */
export async function readClosedFeed(ctx: SyncContext): Promise<void> {
  if (ctx.signal?.aborted) return;
  const marks = await withStatementDeadline(ctx.sql, 'reading the closed-events watermarks', () =>
    selectClosedFeedWatermarks(ctx.sql, ctx.providers),
  );
  const markOf = new Map(marks.map((m) => [m.provider, m.readThrough]));
  for (const provider of ctx.providers) {
    if (ctx.signal?.aborted) return;
    const readThrough = markOf.get(provider);
    const since = readThrough === undefined ? undefined : Math.max(1, Math.floor(readThrough.getTime() / 1000) - CLOSED_FEED_OVERLAP_SEC);
    try {
      await readOneFeed(ctx, provider, since);
    } catch (error) {
      if (error instanceof ApiPaginationError) {
        ctx.totals.cutListings.push(`${provider}/closed: ${error.message}`);
        continue;
      }
      // A server without the feed (the documents of February have none): the listing and the
      // detail refreshes still cover what they can, and the operator hears of it.
      if (error instanceof ApiNotFoundError) {
        ctx.totals.notice(`${provider}: GET /events/closed answered 404; events that opened and ended between two crawls are not seen`);
        continue;
      }
      if (isAbortOf(error, ctx.signal)) return;
      throw error;
    }
  }
}

/** One page of GET /events/closed, written like a listing page and counted in the run's totals. */
export async function writeClosedFeedPage(ctx: SyncContext, events: readonly Checked<Event>[]): Promise<void> {
  ctx.totals.add(
    await writeEvents(ctx.sql, { runId: ctx.runId, endpoint: ENDPOINTS.closedEvents, events, observedAt: ctx.now(), fence: ctx.fence }),
  );
}

async function readOneFeed(ctx: SyncContext, provider: string, since: number | undefined): Promise<void> {
  const askedAt = ctx.now();
  let generatedAt: Date | null = null;
  let pages = 0;
  let eventsSeen = 0;
  for await (const page of ctx.client.iterateClosedEvents(
    { provider, ...(since === undefined ? {} : { since }) },
    { pageSize: CLOSED_FEED_PAGE_SIZE },
  )) {
    // The first page's time: what was updated while later pages were served is read again next time.
    if (pages === 0) generatedAt = page.meta ?? null;
    pages += 1;
    eventsSeen += page.items.length;
    await writeClosedFeedPage(ctx, page.items);
    ctx.progress(`closed events ${provider} page ${pages}`);
    if (ctx.signal?.aborted) return;
  }
  await writeTransaction(ctx.sql, ctx.fence, (tx) =>
    saveClosedFeedWatermark(tx, { provider, readThrough: generatedAt ?? askedAt, pages, eventsSeen, runId: ctx.runId, now: ctx.now() }),
  );
}
