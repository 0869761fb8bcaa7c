import { bigint, date, primaryKey, text } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * What `export` last wrote into an output directory, per exported table: the horizon past which
 * rows may have changed since (a row written by a transaction older than it is in the files). A
 * second export rewrites only the day partitions holding a row at or past it.
 */
export const exportWatermarks = predictionSchema.table(
  'export_watermarks',
  {
    /** Absolute path of the output directory. */
    outDir: text('out_dir').notNull(),
    /** Exported table (the directory under out_dir), e.g. price_history. */
    tableName: text('table_name').notNull(),
    /** pg_snapshot_xmin of the export's snapshot (an xid8): rows written by older transactions are all in the files. */
    snapshotXmin: bigint('snapshot_xmin', { mode: 'number' }).notNull(),
    exportedAt: timestampTz('exported_at').notNull(),
    /** package.json version of the exporter that wrote it. */
    exporterVersion: text('exporter_version').notNull(),
    /**
     * Fingerprint of what the table's files were written as (exportLayout): its columns and their
     * types, its source, and the schema version. Another layout rewrites every day; null (an
     * export before 0015) too.
     */
    layout: text('layout'),
  },
  (t) => [primaryKey({ columns: [t.outDir, t.tableName] })],
);

/** Every day partition an export wrote (or found empty), with what it holds: the manifest is built from these. */
export const exportPartitions = predictionSchema.table(
  'export_partitions',
  {
    outDir: text('out_dir').notNull(),
    tableName: text('table_name').notNull(),
    /** UTC day of the partition (table/date=YYYY-MM-DD/). */
    day: date('day', { mode: 'string' }).notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
    /** Size of its Parquet file; 0 when the day has no rows (and no file). */
    fileBytes: bigint('file_bytes', { mode: 'number' }).notNull(),
    /** Earliest and latest value of the partition column in it (null when empty). */
    minAt: timestampTz('min_at'),
    maxAt: timestampTz('max_at'),
    writtenAt: timestampTz('written_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.outDir, t.tableName, t.day] })],
);
