import { numeric, primaryKey, text } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * Change-only price history: a row per distinct set of values, first seen at observed_at and
 * last confirmed at last_observed_at. The primary key (market_id, observed_at) serves both
 * "latest snapshot of a market" and "history of a market by time". Partitioned by month of
 * observed_at (0013_compact_books_and_time_partitions.sql).
 */
export const pricingSnapshots = predictionSchema.table(
  'pricing_snapshots',
  {
    marketId: text('market_id').notNull(),
    observedAt: timestampTz('observed_at').notNull(),
    lastObservedAt: timestampTz('last_observed_at').notNull(),
    buyYesMicroUsd: numeric('buy_yes_micro_usd'),
    buyNoMicroUsd: numeric('buy_no_micro_usd'),
    sellYesMicroUsd: numeric('sell_yes_micro_usd'),
    sellNoMicroUsd: numeric('sell_no_micro_usd'),
    volume: numeric('volume'),
  },
  (t) => [primaryKey({ columns: [t.marketId, t.observedAt] })],
);
