import { hash } from 'node:crypto';

import { duckType } from './exportColumns.js';
import type { ExportTable } from './ExportTable.js';
import type { SchemaVersion } from './schemaVersion.js';

/**
 * What a table's files are written as: its columns with their Parquet types, its source, key and
 * partition column, and the schema version the rows were read under (a migration may change what
 * a view computes without touching a row). Files of another layout are rewritten whole: a
 * directory never mixes two.
 */
export function exportLayout(table: ExportTable, schema: SchemaVersion): string {
  const described = {
    source: table.source,
    partitionColumn: table.partitionColumn,
    orderBy: table.orderBy,
    columns: table.columns.map((c) => [c.name, duckType(c)]),
    schema: schema.latestMigration ?? `${schema.migrations} migrations`,
  };
  return hash('sha256', JSON.stringify(described), 'base64url');
}
