import { ApiNotFoundError } from '../api/client/index.js';
import { ENDPOINTS } from '../api/endpoints/requests.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import type { Checked, Event, Market } from '../domain/types.js';
import { type MarketTarget, selectStaleEvents } from '../sql/targets/selectSyncTargets.js';
import { writeEvents } from '../store/writeEvents.js';
import { writeMarkets } from '../store/writeMarkets.js';
import { fetchInBatches } from './fetchInBatches.js';
import { isAbortOf } from './isAbortOf.js';
import { type ClosingWindow, marketsToFetch, selectMarketDetailTargets } from './marketDetailTargets.js';
import type { SyncContext } from './SyncContext.js';

/**
 * Pages GET /events/{id}/markets for events whose listing came without their markets. A 404 (the
 * event went away since it was listed) is counted as gone, like in the other detail phases.
 */
export async function fetchEventMarkets(ctx: SyncContext, events: readonly { eventId: string; provider: string }[]): Promise<void> {
  for (const { eventId, provider } of events) {
    if (ctx.signal?.aborted) return;
    try {
      for await (const page of ctx.client.iterateEventMarkets(eventId)) {
        const markets = page.items.map((checked) => ({ checked, eventId, provider }));
        ctx.totals.add(
          await writeMarkets(ctx.sql, {
            runId: ctx.runId,
            endpoint: ENDPOINTS.listEventMarkets,
            isDetail: false,
            markets,
            observedAt: ctx.now(),
            fence: ctx.fence,
          }),
        );
      }
    } catch (error) {
      if (error instanceof ApiNotFoundError) {
        ctx.totals.notFound += 1;
        continue;
      }
      if (isAbortOf(error, ctx.signal)) return;
      throw error;
    }
  }
}

/**
 * Events that left the listing but may still change (no winner yet, or still active): their
 * detail, with markets, is the only place their winner and final state appear.
 */
export async function refreshStaleEvents(ctx: SyncContext, cycleStart: Date): Promise<void> {
  if (ctx.signal?.aborted) return;
  const targets = await withStatementDeadline(ctx.sql, 'selecting stale events', () =>
    selectStaleEvents(ctx.sql, ctx.providers, cycleStart),
  );
  await fetchInBatches(
    targets,
    (t) => ctx.client.getEvent(t.eventId, { includeMarkets: true, includeAllMarkets: true }),
    async (results, observedAt) => {
      // The detail endpoint takes no provider; the stored one is authoritative.
      const events: Checked<Event>[] = results.map(({ item, result }) =>
        result.ok ? { ok: true, value: { ...result.value, provider: result.value.provider ?? item.provider } } : result,
      );
      ctx.totals.add(await writeEvents(ctx.sql, { runId: ctx.runId, endpoint: ENDPOINTS.getEvent, events, observedAt, fence: ctx.fence }));
      ctx.progress(`event details ${results.length}/${targets.length}`);
    },
    { batchSize: ctx.batchSize, signal: ctx.signal, now: ctx.now, onNotFound: () => void ctx.totals.notFound++ },
  );
}

/**
 * Markets still unsettled that no listing or event detail showed since `seenSince`, markets whose
 * records so far lacked metadata, and (with `closingWindow`) open markets around their close time:
 * fetched one by one from GET /markets/{id}.
 */
export async function refreshStaleMarkets(ctx: SyncContext, seenSince: Date, closingWindow?: ClosingWindow): Promise<void> {
  if (ctx.signal?.aborted) return;
  const closing = closingWindow && { ...closingWindow, now: ctx.now };
  const targets = marketsToFetch(
    await withStatementDeadline(ctx.sql, 'selecting markets to refresh', () =>
      selectMarketDetailTargets(ctx.sql, ctx.providers, seenSince, closing),
    ),
  );
  await fetchInBatches<MarketTarget, Checked<Market>>(
    targets,
    (t) => ctx.client.getMarket(t.marketId),
    async (results, observedAt) => {
      const markets = results.map(({ item, result }) => ({ checked: result, eventId: item.eventId, provider: item.provider }));
      ctx.totals.add(
        await writeMarkets(ctx.sql, {
          runId: ctx.runId,
          endpoint: ENDPOINTS.getMarket,
          isDetail: true,
          markets,
          observedAt,
          fence: ctx.fence,
        }),
      );
      ctx.progress(`market details ${results.length}/${targets.length}`);
    },
    { batchSize: ctx.batchSize, signal: ctx.signal, now: ctx.now, onNotFound: () => void ctx.totals.notFound++ },
  );
}
