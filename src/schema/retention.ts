import { bigint, integer, primaryKey, text } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

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
    rangeStart: timestampTz('range_start').notNull(),
    rangeEnd: timestampTz('range_end').notNull(),
    rowCount: bigint('row_count', { mode: 'number' }).notNull(),
    /** PREDICTION_RETENTION_MONTHS when it was dropped. */
    retentionMonths: integer('retention_months').notNull(),
    droppedAt: timestampTz('dropped_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.rangeStart] })],
);
