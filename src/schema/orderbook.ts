import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, numeric, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * A distinct order book of a market, first seen at observed_at and last confirmed at
 * last_observed_at, with all its levels in the row. content_hash identifies the levels, so an
 * unchanged book adds no snapshot. Partitioned by month of observed_at
 * (0013_compact_books_and_time_partitions.sql), which is why observed_at is in the primary key.
 *
 * The levels are fixed-point integers, YES bids best first then NO bids best first (yes_levels
 * splits them): 8 bytes a level against 24 as numeric arrays and 180 as rows (docs/scaling.md).
 * A book with a value that does not fit (more digits than 32 bits hold) keeps its levels exactly
 * in exact_price_cents / exact_sizes instead. prediction.orderbook_levels reads either as rows.
 */
export const orderbookSnapshots = predictionSchema.table(
  'orderbook_snapshots',
  {
    // A sequence default, not an identity column: Postgres before 17 has no identity on a partitioned table.
    snapshotId: bigint('snapshot_id', { mode: 'number' })
      .notNull()
      .default(sql`nextval('prediction.orderbook_snapshots_snapshot_id_seq')`),
    marketId: text('market_id').notNull(),
    observedAt: timestampTz('observed_at').notNull(),
    lastObservedAt: timestampTz('last_observed_at').notNull(),
    yesLevels: integer('yes_levels').notNull(),
    noLevels: integer('no_levels').notNull(),
    contentHash: text('content_hash').notNull(),
    isNull: boolean('is_null').notNull(),
    /** Decimal places of price_units: a price is price_units × 10^-price_scale cents. */
    priceScale: smallint('price_scale'),
    /** Decimal places of size_units: a size is size_units × 10^-size_scale contracts. */
    sizeScale: smallint('size_scale'),
    priceUnits: integer('price_units').array(),
    sizeUnits: integer('size_units').array(),
    /** Only for a book whose values do not fit price_units / size_units (those are null then). */
    exactPriceCents: numeric('exact_price_cents').array(),
    exactSizes: numeric('exact_sizes').array(),
  },
  // market_id leads every key so the table can be distributed (Citus) on it.
  (t) => [primaryKey({ columns: [t.marketId, t.observedAt] })],
);

/**
 * The levels of every snapshot as rows: a view over orderbook_snapshots since 0013, with the
 * columns the table had. `.existing()` keeps drizzle-kit from generating it.
 */
export const orderbookLevels = predictionSchema
  .view('orderbook_levels', {
    marketId: text('market_id').notNull(),
    snapshotId: bigint('snapshot_id', { mode: 'number' }).notNull(),
    side: text('side').notNull(),
    priceCents: numeric('price_cents').notNull(),
    size: numeric('size').notNull(),
  })
  .existing();
