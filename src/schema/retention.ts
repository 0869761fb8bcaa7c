import { bigint, integer, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';

const tz = { withTimezone: true, mode: 'date' } as const;

/**
 * Every partition the retention setting dropped: what was there and when it went. The latest
 * range_end of a table is its horizon, before which analytics says the data is absent
 * (analytics.history_horizons) rather than unchanged.
 */
export const droppedPartitions = predictionSchema.table(
  'dropped_partitions',
  {
    /** The partitioned table, e.g. pricing_snapshots. */
    tableName: text('table_name').notNull(),
    partitionName: text('partition_name').notNull(),
    rangeStart: timestamp('range_start', tz).notNull(),
    rangeEnd: timestamp('range_end', tz).notNull(),
    rowCount: bigint('row_count', { mode: 'number' }).notNull(),
    /** PREDICTION_RETENTION_MONTHS when it was dropped. */
    retentionMonths: integer('retention_months').notNull(),
    droppedAt: timestamp('dropped_at', tz).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.rangeStart] })],
);
