import { getTableColumns } from 'drizzle-orm';
import { getViewConfig, type PgTable, type PgView } from 'drizzle-orm/pg-core';

import { AMOUNT_FRACTION_DIGITS, AMOUNT_INTEGER_DIGITS } from '../domain/types.js';
import { type ColumnKey, sqlNames } from '../sql/core/sqlNames.js';
import type { ViewColumnKey } from '../sql/core/viewNames.js';

/**
 * An exact decimal type of the Parquet files. Postgres numerics have no declared scale, so each
 * exported numeric column gets one here; a value that would not fit exactly stops the export
 * (see columnTransfer.ts) rather than being rounded.
 */
export interface DecimalType {
  precision: 18 | 38;
  scale: number;
}

/** USD prices, implied probabilities and cents: |x| < 10^6, 12 decimals (micro-USD with 6 decimals of its own). */
export const PRICE: DecimalType = { precision: 18, scale: 12 };
/**
 * Volumes, sizes and depths in contracts or USD: |x| < 10^20, 18 decimals, the bound the ingest
 * quarantines a market's volume beyond (AMOUNT_INTEGER_DIGITS, AMOUNT_FRACTION_DIGITS). A value
 * outside it that reached the database otherwise stops the export, naming the table, the column
 * and the record.
 */
export const AMOUNT: DecimalType = { precision: (AMOUNT_INTEGER_DIGITS + AMOUNT_FRACTION_DIGITS) as 38, scale: AMOUNT_FRACTION_DIGITS };
/** Durations in seconds, from Postgres's extract(epoch …): microseconds. */
export const SECONDS: DecimalType = { precision: 18, scale: 6 };

export type ColumnKind = 'text' | 'timestamp' | 'boolean' | 'bigint' | 'integer' | 'decimal' | 'json' | 'textList';

/** A column of an exported table: its name (as in Postgres) and its type in the Parquet files. */
export interface ExportColumn {
  name: string;
  kind: ColumnKind;
  /** Set for kind 'decimal'. */
  decimal?: DecimalType;
}

/** The DuckDB type of a column, which the Parquet writer maps to its physical and logical type. */
export function duckType(column: ExportColumn): string {
  switch (column.kind) {
    case 'text':
      return 'VARCHAR';
    case 'timestamp':
      return 'TIMESTAMPTZ';
    case 'boolean':
      return 'BOOLEAN';
    case 'bigint':
      return 'BIGINT';
    case 'integer':
      return 'INTEGER';
    case 'json':
      return 'JSON';
    case 'textList':
      return 'VARCHAR[]';
    case 'decimal':
      return `DECIMAL(${column.decimal!.precision},${column.decimal!.scale})`;
  }
}

/** drizzle's column types, as the export reads them; numerics need a DecimalType of their own. */
const KINDS: Readonly<Record<string, ColumnKind>> = {
  PgText: 'text',
  PgTimestamp: 'timestamp',
  PgBoolean: 'boolean',
  PgBigInt53: 'bigint',
  PgBigInt64: 'bigint',
  PgInteger: 'integer',
  PgJsonb: 'json',
  PgNumeric: 'decimal',
};

interface DrizzleField {
  name: string;
  columnType: string;
  baseColumn?: { columnType: string };
}

function toExportColumns(
  owner: string,
  fields: Record<string, unknown>,
  decimals: Readonly<Record<string, DecimalType>>,
  omit: readonly string[],
): ExportColumn[] {
  const columns: ExportColumn[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (omit.includes(key)) continue;
    const field = value as DrizzleField;
    const kind = field.columnType === 'PgArray' && field.baseColumn?.columnType === 'PgText' ? 'textList' : KINDS[field.columnType];
    if (kind === undefined) throw new Error(`export: ${owner}.${field.name} has type ${field.columnType}, which the export cannot write`);
    if (kind !== 'decimal') {
      columns.push({ name: field.name, kind });
      continue;
    }
    // Thrown when the module loads: a numeric column added to the schema needs its scale decided here.
    const decimal = decimals[key];
    if (decimal === undefined) throw new Error(`export: ${owner}.${field.name} is numeric: give it a DecimalType`);
    columns.push({ name: field.name, kind, decimal });
  }
  return columns;
}

/** Every column of `table` (less `omit`) in declaration order; each numeric one needs its DecimalType in `decimals`. */
export function tableColumns<T extends PgTable>(
  table: T,
  options: { decimals?: Partial<Record<ColumnKey<T>, DecimalType>>; omit?: readonly ColumnKey<T>[] } = {},
): ExportColumn[] {
  const decimals = (options.decimals ?? {}) as Record<string, DecimalType>;
  return toExportColumns(sqlNames(table).table, getTableColumns(table), decimals, options.omit ?? []);
}

/** Every column of an analytics view, in its order (the names analysts know); numeric ones need a DecimalType. */
export function viewColumns<V extends PgView>(view: V, decimals: Partial<Record<ViewColumnKey<V>, DecimalType>>): ExportColumn[] {
  const config = getViewConfig(view);
  return toExportColumns(`${config.schema}.${config.name}`, config.selectedFields, decimals as Record<string, DecimalType>, []);
}
