import type { Sql } from '../../src/db/connect.js';
import { canonicalDecimal, comparable, postgresRows, readExport, type TextRow } from './exportHelpers.js';

/**
 * What each exported table must equal in Postgres: the relation it comes from (a view's name where
 * one exists), the columns left out on purpose, its key, and its partition column.
 */
export const SOURCES: Readonly<Record<string, { relation: string; omit?: readonly string[]; key: readonly string[]; at: string }>> = {
  markets: { relation: 'prediction.markets', omit: ['content_hash'], key: ['market_id'], at: 'first_seen_at' },
  events: { relation: 'prediction.events', omit: ['content_hash'], key: ['event_id'], at: 'first_seen_at' },
  market_state_history: { relation: 'prediction.market_state_history', key: ['market_id', 'valid_from'], at: 'valid_from' },
  price_history: { relation: 'analytics.price_history', key: ['market_id', 'valid_from'], at: 'valid_from' },
  orderbook_top: { relation: 'analytics.orderbook_top', key: ['market_id', 'valid_from'], at: 'valid_from' },
  orderbook_levels: { relation: 'export_test.levels', key: ['market_id', 'snapshot_id', 'side', 'price_cents'], at: 'valid_from' },
  trades: { relation: 'prediction.trades', key: ['market_id', 'traded_at', 'trade_id'], at: 'traded_at' },
  market_resolutions: { relation: 'analytics.market_resolutions', key: ['market_id'], at: 'first_seen_at' },
  data_coverage: { relation: 'analytics.data_coverage', key: ['run_id', 'provider', 'category'], at: 'started_at' },
};

export const ALL_TABLES = Object.keys(SOURCES);

/** The stored levels with their book's first observation: what orderbook_levels exports. */
export async function createLevelsView(sql: Sql): Promise<void> {
  await sql`create schema if not exists export_test`;
  await sql`
    create or replace view export_test.levels as
    select l.market_id, l.snapshot_id, s.observed_at as valid_from, l.side, l.price_cents, l.size
    from prediction.orderbook_levels l join prediction.orderbook_snapshots s using (market_id, snapshot_id)`;
}

export interface Comparison {
  table: string;
  exported: unknown[];
  postgres: unknown[];
  /** Rows whose hive `date` is not the UTC day of their partition column, or whose file is misnamed. */
  misplaced: string[];
  /** Exported columns whose Parquet type does not carry the value exactly. */
  badTypes: string[];
}

/** The export in `outDir` and Postgres, table by table, as comparable rows. */
export async function compareWithPostgres(sql: Sql, outDir: string, tables: readonly string[] = ALL_TABLES): Promise<Comparison[]> {
  const read = await readExport(outDir, tables);
  const comparisons: Comparison[] = [];
  for (const table of tables) {
    const source = SOURCES[table]!;
    const { types, rows } = read[table]!;
    const pgTypes = new Map(
      (
        await sql<{ name: string; type: string }[]>`
          select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = ${source.relation}::regclass and attnum > 0 and not attisdropped`
      ).map((c) => [c.name, c.type]),
    );
    const columns = [...pgTypes.keys()].filter((c) => !(source.omit ?? []).includes(c));
    const decimals = columns.filter((c) => pgTypes.get(c) === 'numeric');
    const misplaced = rows
      .filter((r) => r.date !== r[source.at]!.slice(0, 10) || !r.filename!.endsWith(`/${table}/date=${r.date}/part-0.parquet`))
      .map((r) => `${r[source.at]} in ${r.filename}`);
    const badTypes = rows.length === 0 ? [] : columns.filter((c) => !exactType(pgTypes.get(c)!, types[c]));
    const exported = comparable(rows as TextRow[], { key: source.key, decimals, columns });
    const postgres = comparable(await postgresRows(sql, source.relation, source.omit ? { omit: source.omit } : {}), {
      key: source.key,
      decimals,
      columns,
    });
    comparisons.push({ table, exported, postgres, misplaced, badTypes });
  }
  return comparisons;
}

/** Whether a Parquet (DuckDB) type holds the Postgres type's values exactly. */
function exactType(pg: string, parquet: string | undefined): boolean {
  switch (pg) {
    case 'numeric':
      return /^DECIMAL\(\d+,\d+\)$/.test(parquet ?? '');
    case 'timestamp with time zone':
      return parquet === 'TIMESTAMP WITH TIME ZONE';
    case 'jsonb':
      return parquet === 'JSON';
    case 'text[]':
      return parquet === 'VARCHAR[]';
    case 'text':
      return parquet === 'VARCHAR';
    case 'boolean':
      return parquet === 'BOOLEAN';
    case 'bigint':
      return parquet === 'BIGINT';
    case 'integer':
      return parquet === 'INTEGER';
    default:
      return false;
  }
}

/** The UTC days whose rows differ between two renderings of a table (rows of the day added, removed or changed). */
export function changedDays(before: readonly TextRow[], after: readonly TextRow[], key: readonly string[], at: string): string[] {
  const id = (r: TextRow) => key.map((k) => r[k]).join('\u0000');
  const render = (r: TextRow) => JSON.stringify(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)));
  const was = new Map(before.map((r) => [id(r), render(r)]));
  const is = new Map(after.map((r) => [id(r), render(r)]));
  const days = new Set<string>();
  for (const r of after) if (was.get(id(r)) !== render(r)) days.add(r[at]!.slice(0, 10));
  for (const r of before) if (!is.has(id(r))) days.add(r[at]!.slice(0, 10));
  return [...days].sort();
}

export { canonicalDecimal };
