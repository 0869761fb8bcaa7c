import { exportWatermarks } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const { table, col } = sqlNames(exportWatermarks);
const WATERMARK = selection(exportWatermarks, ['tableName', 'snapshotXmin', 'layout']);

export type ExportWatermarkRow = RowOf<typeof WATERMARK>;

/** The horizon of the last export into `outDir`, per table (snapshot_xmin as text: an xid8), and the layout it wrote. */
export async function selectExportWatermarks(sql: Queryable, outDir: string): Promise<ExportWatermarkRow[]> {
  return sql<ExportWatermarkRow[]>`
    select ${sql.unsafe(WATERMARK.text)} from ${sql(table)} where ${sql(col.outDir)} = ${outDir} order by ${sql(col.tableName)}`;
}
