import { quoteIdentifier as quote } from '../sql/core/sqlNames.js';
import { duckType, type ExportColumn } from './exportColumns.js';

// How a value travels: Postgres writes it as CSV text (COPY ... TO STDOUT), DuckDB reads that text
// (read_csv) and converts it into the column's exact type for the Parquet file. Text is the one form both sides agree
// on without loss: numerics keep every digit, timestamps their microseconds (the export's session
// runs with TimeZone UTC and DateStyle ISO), jsonb its exact text.

/** The Postgres expression whose text is the column's value in the CSV. `qualifier` is the source's alias. */
export function pgCsvExpression(column: ExportColumn, qualifier: string): string {
  const ref = `${qualifier}.${quote(column.name)}`;
  switch (column.kind) {
    case 'json':
      return `${ref}::text`;
    // A JSON array of strings: one CSV field whatever the strings hold, decoded by DuckDB's from_json.
    case 'textList':
      return `array_to_json(${ref})::text`;
    default:
      return ref;
  }
}

/** The type DuckDB reads the CSV field as: text wherever the conversion to the final type needs checking first. */
export function csvReadType(column: ExportColumn): string {
  return column.kind === 'decimal' || column.kind === 'json' || column.kind === 'textList' ? 'VARCHAR' : duckType(column);
}

/**
 * The DuckDB expression turning the CSV field `name` into the column's type, for `table`. A decimal
 * with more fractional digits than the column's scale (DuckDB's own cast would round it), or more
 * integer digits than its precision leaves, stops the export with an error naming the table, the
 * column, the value and the record (by its `recordKey` column). DECIMAL(38, s) is assembled from a HUGEINT and a DECIMAL(18, s)
 * because DuckDB's text-to-DECIMAL(38) cast is ~100 times slower than these two.
 */
export function parquetValue(column: ExportColumn, table: string, recordKey: string): string {
  const x = quote(column.name);
  switch (column.kind) {
    case 'json':
      return `CAST(${x} AS JSON)`;
    case 'textList':
      return `from_json(${x}, '["VARCHAR"]')`;
    case 'decimal': {
      const { precision, scale } = column.decimal!;
      const type = duckType(column);
      const value =
        precision === 18
          ? `CAST(${x} AS ${type})`
          : `CAST(CASE WHEN starts_with(${x}, '-') THEN -(${magnitude(x, scale)}) ELSE ${magnitude(x, scale)} END AS ${type})`;
      const key = quote(recordKey);
      const message = (what: string) =>
        `'export: ${table}.${column.name} of the record ${recordKey} = ' || coalesce(${key}::VARCHAR, 'null') || ': ' || ${x} || ' has ${what}, so it does not fit ${type}'`;
      // Cheapest test first: text of at most scale + 2 characters cannot hold more decimals.
      const fits =
        `length(${x}) <= ${scale + 2} OR strpos(${x}, '.') = 0 OR length(${x}) - strpos(${x}, '.') <= ${scale} ` +
        `OR length(rtrim(${x}, '0')) - strpos(${x}, '.') <= ${scale}`;
      const integerDigits = precision - scale;
      const fitsInteger = `length(ltrim(split_part(${x}, '.', 1), '-')) <= ${integerDigits}`;
      return (
        `CASE WHEN ${x} IS NULL THEN NULL WHEN NOT (${fitsInteger}) THEN error(${message(`more than ${integerDigits} integer digits`)}) ` +
        `WHEN ${fits} THEN ${value} ELSE error(${message(`more than ${scale} decimal places`)}) END`
      );
    }
    default:
      return x;
  }
}

/** |x| of Postgres numeric text as DECIMAL(38, scale): integer digits through HUGEINT, the fraction through DECIMAL(18, scale). */
function magnitude(x: string, scale: number): string {
  return (
    `CAST(CAST(ltrim(split_part(${x}, '.', 1), '-') AS HUGEINT) AS DECIMAL(38,${scale})) + ` +
    `CAST('0.' || split_part(${x}, '.', 2) || '0' AS DECIMAL(18,${scale}))`
  );
}
