import type { Queryable } from '../sql/core/queryable.js';
import {
  type MarketTarget,
  selectClosingMarkets,
  selectMarketsLackingDetail,
  selectStaleMarkets,
} from '../sql/targets/selectSyncTargets.js';

/** Open markets whose close falls within `aheadSec` from now or `behindSec` before it. */
export interface ClosingWindow {
  aheadSec: number;
  behindSec: number;
}

/** The markets whose detail a refresh fetches, by reason (one market may have several). */
export interface MarketDetailTargets {
  /** Unsettled, and not seen since the refresh's `seenSince`. */
  stale: MarketTarget[];
  /** Never fetched on their own, and their records so far carried no metadata. */
  lacking: MarketTarget[];
  /** Open around their close time; empty without a closing window. */
  closing: MarketTarget[];
}

/**
 * Selects what `refreshStaleMarkets` fetches, for it and for `plan`. `now` is read only for the
 * closing window, after the other two selections, as the refresh always has.
 */
export async function selectMarketDetailTargets(
  sql: Queryable,
  providers: readonly string[],
  seenSince: Date,
  closing?: ClosingWindow & { now: () => Date },
): Promise<MarketDetailTargets> {
  const stale = await selectStaleMarkets(sql, providers, seenSince);
  const lacking = await selectMarketsLackingDetail(sql, providers);
  const closingTargets = closing
    ? await selectClosingMarkets(sql, providers, { now: closing.now(), aheadSec: closing.aheadSec, behindSec: closing.behindSec })
    : [];
  return { stale, lacking, closing: closingTargets };
}

/** Each market once, in the order of its first reason (stale, lacking, closing): the refresh's fetch list. */
export function marketsToFetch(targets: MarketDetailTargets): MarketTarget[] {
  return [...new Map([...targets.stale, ...targets.lacking, ...targets.closing].map((t) => [t.marketId, t])).values()];
}
