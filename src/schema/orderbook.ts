import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, numeric, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { predictionSchema } from './predictionSchema.js';

const tz = { withTimezone: true, mode: 'date' } as const;

/**
 * A distinct order book of a market, first seen at observed_at and last confirmed at
 * last_observed_at. content_hash identifies the levels, so an unchanged book adds no snapshot.
 */
export const orderbookSnapshots = predictionSchema.table(
  'orderbook_snapshots',
  {
    snapshotId: bigint('snapshot_id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    marketId: text('market_id').notNull(),
    observedAt: timestamp('observed_at', tz).notNull(),
    lastObservedAt: timestamp('last_observed_at', tz).notNull(),
    yesLevels: integer('yes_levels').notNull(),
    noLevels: integer('no_levels').notNull(),
    contentHash: text('content_hash').notNull(),
    isNull: boolean('is_null').notNull(),
  },
  (t) => [
    // market_id leads every key so the tables can be distributed (Citus) on it.
    primaryKey({ columns: [t.marketId, t.snapshotId] }),
    uniqueIndex('orderbook_snapshots_market_observed_idx').on(t.marketId, t.observedAt),
  ],
);

/** The levels of a snapshot; append-only (a changed book is a new snapshot). */
export const orderbookLevels = predictionSchema.table(
  'orderbook_levels',
  {
    marketId: text('market_id').notNull(),
    snapshotId: bigint('snapshot_id', { mode: 'number' }).notNull(),
    side: text('side').notNull(),
    priceCents: numeric('price_cents').notNull(),
    size: numeric('size').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.marketId, t.snapshotId, t.side, t.priceCents] }),
    check('orderbook_levels_side_check', sql`${t.side} in ('yes', 'no')`),
  ],
);
