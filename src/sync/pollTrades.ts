import { setTimeout as delay } from 'node:timers/promises';

import { ENDPOINTS } from '../api/endpoints/requests.js';
import { type TradesWritten, writeTrades } from '../store/writeTrades.js';
import { isAbortOf } from './isAbortOf.js';
import type { SyncContext } from './SyncContext.js';
import type { TradedBooks } from './TradedBooks.js';

/**
 * The soonest a poll follows the previous one in a tick: a burst the feed cannot hold is followed
 * at most this often, so trades never take more than one request in this many seconds of the budget.
 */
export const TRADES_MIN_INTERVAL_MS = 5_000;

/** One poll of the trade feed, written with its coverage. */
export async function pollTrades(ctx: SyncContext): Promise<TradesWritten> {
  const { trades } = await ctx.client.listTrades();
  const written = await writeTrades(ctx.sql, {
    runId: ctx.runId,
    endpoint: ENDPOINTS.listTrades,
    trades,
    polledAt: ctx.now(),
    fence: ctx.fence,
  });
  ctx.totals.add(written.counts);
  if (written.coverage.gapBefore && written.counts.recordsWritten > 0) {
    ctx.progress(`trade feed: ${written.counts.recordsWritten} new trades, possibly some missed before them`);
  }
  return written;
}

/**
 * When the next poll should come, in ms after this one: within half the time the answer spanned, so
 * that the next answer overlaps it while the feed keeps its rate; at once (the minimum interval)
 * after a gap. Null: the next tick of the schedule is soon enough (a quiet feed, or one trade). Pure.
 */
export function nextTradePollInMs(written: Pick<TradesWritten, 'coverage' | 'spanSec'>): number | null {
  if (written.coverage.gapBefore) return TRADES_MIN_INTERVAL_MS;
  if (written.spanSec === null) return null;
  return Math.max(TRADES_MIN_INTERVAL_MS, (written.spanSec * 1000) / 2);
}

/**
 * The trades job: polls the feed, then polls again before the tick's deadline as often as the feed's
 * pace asks (nextTradePollInMs), so that a busy feed is followed without gaps while a quiet one
 * costs one request a tick. The markets of new trades are told to `traded` (the sweep of this
 * process listens). An abort ends it quietly.
 */
export async function followTrades(ctx: SyncContext, deadline: Date, traded?: TradedBooks, sleep = abortableSleep): Promise<void> {
  try {
    for (;;) {
      const written = await pollTrades(ctx);
      traded?.tell(written.traded);
      const waitMs = nextTradePollInMs(written);
      // The first poll of every tick is the schedule's: a wait that reaches the deadline is its job.
      if (waitMs === null || ctx.now().getTime() + waitMs >= deadline.getTime()) return;
      await sleep(waitMs, ctx.signal);
      if (ctx.signal?.aborted) return;
    }
  } catch (error) {
    if (!isAbortOf(error, ctx.signal)) throw error;
  }
}

/** Waits, or returns early and quietly when the signal aborts. */
async function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  await delay(ms, undefined, { signal }).catch((error: unknown) => {
    if (!signal?.aborted) throw error;
  });
}
