import type postgres from 'postgres';

/** A pool or a transaction: every operation under src/sql takes one as its first argument. */
export type Queryable = postgres.Sql | postgres.TransactionSql;

/** jsonb values travel as text and are cast in SQL (postgres.js under drizzle won't serialize jsonb[]). */
export const jsonText = (value: unknown): string => JSON.stringify(value ?? null);

/** How a column's values are bound as one array parameter. */
export type BindAs = 'text' | 'float8' | 'boolean';

/**
 * The array parameter for a column's values and the SQL element type to unnest it as.
 * postgres.js cannot bind a JS boolean array, so booleans travel as text and are cast back.
 */
export function bindArray(bindAs: BindAs, values: readonly unknown[]): { values: unknown[]; arrayType: string; cast: string } {
  if (bindAs === 'boolean') {
    return { values: values.map((v) => (v === null || v === undefined ? null : String(v))), arrayType: 'text[]', cast: '::boolean' };
  }
  return { values: [...values], arrayType: `${bindAs}[]`, cast: '' };
}
