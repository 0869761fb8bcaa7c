import { duckType } from './exportColumns.js';
import type { ExportTable } from './ExportTable.js';
import type { RecordedPartition } from './planPartitions.js';
import type { SchemaVersion } from './schemaVersion.js';

/** Where a day partition's file lives, relative to the output directory (always with '/'). */
export function partitionPath(table: string, day: string): string {
  return `${table}/date=${day}/part-0.parquet`;
}

/**
 * manifest.json: what the output directory holds, table by table (every partition recorded for it,
 * whichever export wrote it). Only data-derived values, in a fixed key order, so that the same
 * database exported twice gives the same bytes.
 */
export function buildManifest(input: {
  tables: readonly ExportTable[];
  partitions: ReadonlyMap<string, readonly RecordedPartition[]>;
  schema: SchemaVersion;
  exporterVersion: string;
}): string {
  const tables: Record<string, unknown> = {};
  for (const table of input.tables) {
    const partitions = [...(input.partitions.get(table.name) ?? [])].sort((a, b) => (a.day < b.day ? -1 : 1));
    if (partitions.length === 0) continue;
    const files = partitions.filter((p) => p.rows > 0);
    const times = files.flatMap((p) => [p.minAt, p.maxAt]).filter((t): t is string => t !== null);
    tables[table.name] = {
      source: table.source,
      partitionColumn: table.partitionColumn,
      orderBy: table.orderBy,
      columns: table.columns.map((c) => ({ name: c.name, type: duckType(c) })),
      rows: files.reduce((n, p) => n + p.rows, 0),
      files: files.length,
      bytes: files.reduce((n, p) => n + p.fileBytes, 0),
      // The earliest and latest partition-column value in the files (UTC, microseconds).
      from: times.length > 0 ? times.reduce((a, b) => (a < b ? a : b)) : null,
      to: times.length > 0 ? times.reduce((a, b) => (a > b ? a : b)) : null,
      partitions: files.map((p) => ({
        date: p.day,
        file: partitionPath(table.name, p.day),
        rows: p.rows,
        bytes: p.fileBytes,
        from: p.minAt,
        to: p.maxAt,
      })),
    };
  }
  const manifest = {
    format: 'prediction-ingest export',
    exporterVersion: input.exporterVersion,
    schema: input.schema,
    layout:
      '<table>/date=<YYYY-MM-DD>/part-0.parquet: one Parquet file per UTC day of the partition column; ' +
      'timestamps UTC (isAdjustedToUTC), prices and sizes exact DECIMAL, raw as JSON text',
    tables,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
