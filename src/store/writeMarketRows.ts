import { ensureMonthPartitions } from '../sql/core/ensureMonthPartitions.js';
import type { Queryable } from '../sql/core/queryable.js';
import { recordPricing } from '../sql/writes/recordPricing.js';
import { MARKET_STATE, recordStateHistory } from '../sql/writes/recordStateHistory.js';
import { type MarketRow, upsertMarkets } from '../sql/writes/upsertMarkets.js';

export interface MarketRowsWritten {
  inserted: number;
  updated: number;
  states: number;
  pricing: number;
}

/**
 * The market part of a write, inside the caller's transaction: the rows, their state history and
 * their prices. Wherever markets come from (a listing, an event's detail, their own detail), they
 * are recorded the same way. Market ids must be unique within the batch.
 */
export async function writeMarketRows(tx: Queryable, rows: readonly MarketRow[], observedAt: Date): Promise<MarketRowsWritten> {
  await ensureMonthPartitions(tx, observedAt);
  const upserted = await upsertMarkets(tx, rows, observedAt);
  const states = await recordStateHistory(
    tx,
    MARKET_STATE,
    rows.map((m) => m.marketId),
    rows.map((m) => [m.status, m.result, m.settlementTimeSec]),
    observedAt,
  );
  const priced = rows.flatMap((m) => (m.pricing ? [{ marketId: m.marketId, pricing: m.pricing }] : []));
  const pricing = await recordPricing(tx, priced, observedAt);
  return { inserted: upserted.inserted, updated: upserted.updated, states, pricing: pricing.inserted };
}
