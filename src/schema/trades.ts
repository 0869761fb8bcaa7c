import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, numeric, primaryKey, text } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * Fills of the service's trade feed (GET /trades), one row per trade however many polls saw it.
 * Partitioned by month of traded_at (0018_trade_feed.sql), which is why traded_at is in the primary
 * key; market_id leads it so that the table can be distributed (Citus) on it.
 */
export const trades = predictionSchema.table(
  'trades',
  {
    marketId: text('market_id').notNull(),
    tradedAt: timestampTz('traded_at').notNull(),
    tradeId: text('trade_id').notNull(),
    eventId: text('event_id'),
    /** buy or sell, as received. */
    action: text('action').notNull(),
    /** yes or no, as received. */
    side: text('side').notNull(),
    priceMicroUsd: numeric('price_micro_usd').notNull(),
    amountMicroUsd: numeric('amount_micro_usd').notNull(),
    ownerPubkey: text('owner_pubkey'),
    /** When the first poll that carried it arrived. */
    observedAt: timestampTz('observed_at').notNull(),
    drift: text('drift')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    raw: jsonb('raw').notNull(),
  },
  (t) => [primaryKey({ columns: [t.marketId, t.tradedAt, t.tradeId] }), index('trades_traded_at_idx').on(t.tradedAt)],
);

/**
 * One row per poll of the trade feed: what span of time it saw whole, and whether it joined the
 * previous poll's span or may have missed trades between them. With it, "no trades" is never
 * confused with "not looked" (read through analytics.trade_coverage).
 */
export const tradePolls = predictionSchema.table(
  'trade_polls',
  {
    pollId: bigint('poll_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The run that polled (ingest_runs.run_id); no foreign key, so that old runs can be pruned on their own. */
    runId: bigint('run_id', { mode: 'number' }),
    polledAt: timestampTz('polled_at').notNull(),
    /** Rows of the answer that were stored or already known (quarantined rows not counted). */
    tradesSeen: integer('trades_seen').notNull(),
    /** Of those, the trades no earlier poll had stored. */
    tradesNew: integer('trades_new').notNull(),
    /** From this instant to covers_to, every trade of the feed was seen. */
    coversFrom: timestampTz('covers_from').notNull(),
    coversTo: timestampTz('covers_to').notNull(),
    /** True when trades between the previous poll's covers_to and this covers_from may be missing (and for the first poll). */
    gapBefore: boolean('gap_before').notNull(),
  },
  (t) => [index('trade_polls_polled_at_idx').on(t.polledAt)],
);
