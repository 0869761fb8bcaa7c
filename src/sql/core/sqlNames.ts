import { getTableColumns } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';

// The bridge between the drizzle schema (src/schema), the one declaration of every table and
// column, and the hand-written SQL of this folder. Statements take their table and column names
// from here: a column whose TS key is renamed in the schema fails the type check wherever a
// statement uses it, and one whose SQL name changes flows into every statement (and needs a
// migration, which `drizzle-kit generate` then writes).

/** The TS keys of a table's columns, e.g. 'marketId' | 'eventId' | … for markets. */
export type ColumnKey<T extends PgTable> = Extract<keyof T['_']['columns'], string>;

/** The SQL names of a table and of its columns, computed once per table. */
export interface SqlNames<T extends PgTable> {
  /** The table's own name, without its schema (`markets`): how ingest_runs.rows_by_table counts rows. */
  readonly name: T['_']['name'];
  /**
   * Schema-qualified and unquoted (`prediction.markets`), for postgres.js identifier interpolation
   * in a tagged template: `${sql(t.table)}`, which quotes each dot-separated part ("prediction"."markets").
   */
  readonly table: string;
  /** Schema-qualified and quoted (`"prediction"."markets"`), for statement text built as a string (sql.unsafe, COPY). */
  readonly quotedTable: string;
  /** Each column's SQL name by its TS key (`col.detailFetchedAt` is `detail_fetched_at`), interpolated as `${sql(t.col.x)}`. */
  readonly col: { readonly [K in ColumnKey<T>]: string };
  /** The same, quoted (`"detail_fetched_at"`), for statement text built as a string. */
  readonly quoted: { readonly [K in ColumnKey<T>]: string };
}

/** A quoted SQL identifier: safe for any name, the same as the bare name for a lower-case one. */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

// Statements call sqlNames for every batch they write: computed once per table, then looked up.
const cache = new WeakMap<PgTable, SqlNames<PgTable>>();

/** The SQL names of `table` and its columns (see SqlNames). */
export function sqlNames<T extends PgTable>(table: T): SqlNames<T> {
  const known = cache.get(table);
  if (known) return known as unknown as SqlNames<T>;
  const config = getTableConfig(table);
  const col: Record<string, string> = {};
  const quoted: Record<string, string> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    col[key] = column.name;
    quoted[key] = quoteIdentifier(column.name);
  }
  const names = {
    name: config.name,
    table: config.schema === undefined ? config.name : `${config.schema}.${config.name}`,
    quotedTable:
      config.schema === undefined ? quoteIdentifier(config.name) : `${quoteIdentifier(config.schema)}.${quoteIdentifier(config.name)}`,
    col: Object.freeze(col),
    quoted: Object.freeze(quoted),
  } as SqlNames<T>;
  cache.set(table, names as unknown as SqlNames<PgTable>);
  return names;
}

/** int8 columns: drizzle maps them to numbers (`mode: 'number'`), postgres.js returns them as strings. */
export type Int8Column = 'PgBigInt53' | 'PgBigInt64' | 'PgBigSerial53' | 'PgBigSerial64';

/**
 * A row of these columns as postgres.js returns them, keyed by their TS keys: the schema's
 * `$inferSelect`, except that int8 values arrive as strings (postgres.js's default types).
 */
export type SelectedRow<T extends PgTable, K extends ColumnKey<T>> = {
  [P in K]: T['_']['columns'][P]['_']['columnType'] extends Int8Column
    ? Exclude<T['$inferSelect'][P], number | bigint> | string
    : T['$inferSelect'][P];
};

/** A select list that returns columns under their TS keys, and the row type it produces. */
export interface Selection<Row> {
  /** `"market_id" as "marketId", …` (qualified: `m."market_id" as "marketId"`): interpolate as `${sql.unsafe(s.text)}`. */
  readonly text: string;
  /** Never set: carries the row type, read with RowOf. */
  readonly row?: Row;
}

/** The row type a Selection produces. */
export type RowOf<S> = S extends Selection<infer Row> ? Row : never;

/**
 * The select list of these columns of `table`, each aliased to its TS key, so the result's keys
 * and type both follow the schema. `qualifier` is the table's alias in the statement, if any.
 */
export function selection<T extends PgTable, const K extends ColumnKey<T>>(
  table: T,
  keys: readonly K[],
  qualifier?: string,
): Selection<SelectedRow<T, K>> {
  const { quoted } = sqlNames(table);
  const prefix = qualifier === undefined ? '' : `${qualifier}.`;
  return { text: keys.map((key) => `${prefix}${quoted[key]} as ${quoteIdentifier(key)}`).join(', ') };
}

/** The name of the unique constraint of `table` over exactly these columns; throws (at module load) if it has none. */
export function uniqueConstraintName<T extends PgTable>(table: T, keys: readonly ColumnKey<T>[]): string {
  const { col } = sqlNames(table);
  const wanted = keys.map((key) => col[key]).sort();
  const config = getTableConfig(table);
  for (const unique of config.uniqueConstraints) {
    const names = unique.columns.map((c) => c.name).sort();
    const name = unique.getName();
    if (name !== undefined && names.length === wanted.length && names.every((n, i) => n === wanted[i])) return name;
  }
  throw new Error(`${config.name} declares no unique constraint over (${wanted.join(', ')})`);
}
