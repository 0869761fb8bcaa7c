import { sql } from 'drizzle-orm';
import { boolean, check, index, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

import { marketOutcomeColumns } from './marketStateColumns.js';
import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * One row per distinct (status, result, settlement_time) a market has had, valid over
 * [valid_from, valid_to); valid_to is null on the current row. A repeated observation adds nothing.
 * Partitioned by month of valid_from (0013_compact_books_and_time_partitions.sql).
 */
export const marketStateHistory = predictionSchema.table(
  'market_state_history',
  {
    marketId: text('market_id').notNull(),
    ...marketOutcomeColumns(),
    settlementTime: timestampTz('settlement_time'),
    validFrom: timestampTz('valid_from').notNull(),
    validTo: timestampTz('valid_to'),
  },
  (t) => [
    primaryKey({ columns: [t.marketId, t.validFrom] }),
    // Not unique, unlike the event index below: a partitioned table's unique index must include
    // the partition key (valid_from). One current row per market is the writer's rule (recordStateHistory).
    index('market_state_history_current_idx')
      .on(t.marketId)
      .where(sql`${t.validTo} is null`),
    check('market_state_history_interval_check', sql`${t.validTo} is null or ${t.validTo} > ${t.validFrom}`),
  ],
);

/** The same for (is_active, is_live, winner) of an event. */
export const eventStateHistory = predictionSchema.table(
  'event_state_history',
  {
    eventId: text('event_id').notNull(),
    isActive: boolean('is_active'),
    isLive: boolean('is_live'),
    winner: text('winner'),
    validFrom: timestampTz('valid_from').notNull(),
    validTo: timestampTz('valid_to'),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.validFrom] }),
    uniqueIndex('event_state_history_current_idx')
      .on(t.eventId)
      .where(sql`${t.validTo} is null`),
    check('event_state_history_interval_check', sql`${t.validTo} is null or ${t.validTo} > ${t.validFrom}`),
  ],
);
