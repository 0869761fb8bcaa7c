import { exportPartitions } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col } = sqlNames(exportPartitions);

export interface ExportPartitionRow {
  tableName: string;
  /** YYYY-MM-DD. */
  day: string;
  rows: number;
  fileBytes: number;
  /** ISO instants with microseconds (a JS Date would drop them); null for an empty day. */
  minAt: string | null;
  maxAt: string | null;
}

/** Every partition recorded for `outDir`, by table and day. */
// to_char, not ::text: a day's text follows the session's DateStyle, and the export's files are named by it.
export async function selectExportPartitions(sql: Queryable, outDir: string): Promise<ExportPartitionRow[]> {
  const iso = (column: string) => sql`to_char(${sql(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const rows = await sql<{ tableName: string; day: string; rows: string; fileBytes: string; minAt: string | null; maxAt: string | null }[]>`
    select ${sql(col.tableName)} as "tableName", to_char(${sql(col.day)}, 'YYYY-MM-DD') as day, ${sql(col.rows)} as rows,
           ${sql(col.fileBytes)} as "fileBytes", ${iso(col.minAt)} as "minAt", ${iso(col.maxAt)} as "maxAt"
    from ${sql(table)} where ${sql(col.outDir)} = ${outDir}
    order by ${sql(col.tableName)}, ${sql(col.day)}`;
  return rows.map((r) => ({ ...r, rows: Number(r.rows), fileBytes: Number(r.fileBytes) }));
}
