import { exportPartitions, exportWatermarks } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';
import type { ExportPartitionRow } from './selectExportPartitions.js';

const parts = sqlNames(exportPartitions);
const marks = sqlNames(exportWatermarks);

/** A partition as an export records it: the row selectExportPartitions reads back. */
export type SavedPartition = ExportPartitionRow;

export interface ExportState {
  outDir: string;
  /** Partitions written (or found empty) by this export. */
  written: readonly SavedPartition[];
  /** Partitions whose day holds no row any more: their files are gone. */
  removed: readonly { tableName: string; day: string }[];
  /** New horizons, per table (xid8 as text), with the layout of its files (exportLayout). */
  watermarks: readonly { tableName: string; snapshotXmin: string; layout: string }[];
  exporterVersion: string;
  now: Date;
}

/**
 * Records what an export wrote, once its files are in place: run it in one transaction, so that a
 * crash leaves the previous state, from which the next export rewrites the same partitions again.
 */
export async function saveExportState(sql: Queryable, state: ExportState): Promise<void> {
  const { outDir, written, removed, watermarks, now } = state;
  if (written.length > 0) {
    const pick = <K extends keyof SavedPartition>(k: K) => written.map((p) => p[k]);
    await sql`
      insert into ${sql(parts.table)} (${sql(parts.col.outDir)}, ${sql(parts.col.tableName)}, ${sql(parts.col.day)}, ${sql(parts.col.rows)},
        ${sql(parts.col.fileBytes)}, ${sql(parts.col.minAt)}, ${sql(parts.col.maxAt)}, ${sql(parts.col.writtenAt)})
      select ${outDir}, t.table_name, t.day::date, t.rows::bigint, t.file_bytes::bigint, t.min_at::timestamptz, t.max_at::timestamptz, ${now}::timestamptz
      from unnest(${pick('tableName')}::text[], ${pick('day')}::text[], ${pick('rows').map(String)}::text[],
                  ${pick('fileBytes').map(String)}::text[], ${pick('minAt')}::text[], ${pick('maxAt')}::text[])
        as t(table_name, day, rows, file_bytes, min_at, max_at)
      on conflict (${sql(parts.col.outDir)}, ${sql(parts.col.tableName)}, ${sql(parts.col.day)}) do update set
        ${sql(parts.col.rows)} = excluded.${sql(parts.col.rows)}, ${sql(parts.col.fileBytes)} = excluded.${sql(parts.col.fileBytes)},
        ${sql(parts.col.minAt)} = excluded.${sql(parts.col.minAt)}, ${sql(parts.col.maxAt)} = excluded.${sql(parts.col.maxAt)},
        ${sql(parts.col.writtenAt)} = excluded.${sql(parts.col.writtenAt)}`;
  }
  if (removed.length > 0) {
    await sql`
      delete from ${sql(parts.table)} p
      using unnest(${removed.map((r) => r.tableName)}::text[], ${removed.map((r) => r.day)}::text[]) as t(table_name, day)
      where p.${sql(parts.col.outDir)} = ${outDir} and p.${sql(parts.col.tableName)} = t.table_name and p.${sql(parts.col.day)} = t.day::date`;
  }
  if (watermarks.length > 0) {
    await sql`
      insert into ${sql(marks.table)} (${sql(marks.col.outDir)}, ${sql(marks.col.tableName)}, ${sql(marks.col.snapshotXmin)},
        ${sql(marks.col.exportedAt)}, ${sql(marks.col.exporterVersion)}, ${sql(marks.col.layout)})
      select ${outDir}, t.table_name, t.snapshot_xmin::bigint, ${now}::timestamptz, ${state.exporterVersion}, t.layout
      from unnest(${watermarks.map((w) => w.tableName)}::text[], ${watermarks.map((w) => w.snapshotXmin)}::text[],
                  ${watermarks.map((w) => w.layout)}::text[]) as t(table_name, snapshot_xmin, layout)
      on conflict (${sql(marks.col.outDir)}, ${sql(marks.col.tableName)}) do update set
        ${sql(marks.col.snapshotXmin)} = excluded.${sql(marks.col.snapshotXmin)}, ${sql(marks.col.exportedAt)} = excluded.${sql(marks.col.exportedAt)},
        ${sql(marks.col.exporterVersion)} = excluded.${sql(marks.col.exporterVersion)}, ${sql(marks.col.layout)} = excluded.${sql(marks.col.layout)}`;
  }
}
