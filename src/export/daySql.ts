import type postgres from 'postgres';

import { droppedPartitions } from '../schema/index.js';
import type { Queryable } from '../sql/core/queryable.js';
import { quoteIdentifier, sqlNames } from '../sql/core/sqlNames.js';
import { pgCsvExpression } from './columnTransfer.js';
import type { DayCount, DayQuery, DaySelection, ExportTable } from './ExportTable.js';

// SQL pieces shared by the exported tables: the UTC day of a timestamp, the change test against
// the last export's transaction horizon, and the day filter of a COPY statement.

const dropped = sqlNames(droppedPartitions);

/** The UTC day of a timestamptz expression as YYYY-MM-DD text (for the days queries). */
export function dayText(expression: string): string {
  return `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD')`;
}

/**
 * Whether the row version of `alias` was written at or after the horizon (a 32-bit xid): age()
 * counts back from the same point for both, so the comparison holds across xid wraparound as long as
 * the horizon is younger than 2^31 transactions (readHorizon checks). Frozen and special xids have
 * the largest age and so count as unchanged; no horizon: everything has changed.
 */
export function changedSince(sql: Queryable, alias: string, horizon: string | null): postgres.Fragment {
  return sql`coalesce(age(${sql(alias)}.xmin) <= age(${horizon}::xid), true)`;
}

/**
 * Whether retention dropped a month since the horizon (a row of prediction.dropped_partitions
 * written at or after it): what a view derives from the history it dropped (history_absent, a
 * market's earliest observations) has changed on every day.
 */
export function retentionChangedSince(sql: Queryable, horizon: string | null): postgres.Fragment {
  return sql`exists (select 1 from ${sql(dropped.table)} d where ${changedSince(sql, 'd', horizon)})`;
}

/**
 * The range condition of a days query on `expression` (SQL text). The bounds go as text: postgres.js
 * would serialize a timestamptz parameter through Date, which knows no infinity.
 */
export function inRange(sql: Queryable, expression: string, query: DayQuery): postgres.Fragment {
  return sql`${sql.unsafe(expression)} >= ${query.from}::text::timestamptz and ${sql.unsafe(expression)} < ${query.to}::text::timestamptz`;
}

/** Merges day rows (several per day when a query unions the days of changed rows with their neighbours'). */
export function mergeDays(rows: readonly { day: string; rows: string | number; changed: boolean }[]): DayCount[] {
  const byDay = new Map<string, DayCount>();
  for (const row of rows) {
    const known = byDay.get(row.day) ?? { day: row.day, rows: 0, changed: false };
    known.rows += Number(row.rows);
    known.changed ||= row.changed;
    byDay.set(row.day, known);
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** The UTC day of a timestamptz expression as a date (the COPY statements' partition key). */
export function dayDate(expression: string): string {
  return `(${expression} at time zone 'UTC')::date`;
}

/**
 * The WHERE condition (literals only) selecting `expression`'s rows in the selection. Its values are
 * ISO instants and YYYY-MM-DD days that runExport computed itself, never user text.
 */
export function selectionCondition(expression: string, selection: DaySelection): string {
  const bounds = `${expression} >= ${literal(selection.from)}::timestamptz and ${expression} < ${literal(selection.to)}::timestamptz`;
  if (selection.days === null) return bounds;
  return `${bounds} and ${dayDate(expression)} = any(${literal(`{${selection.days.join(',')}}`)}::date[])`;
}

function literal(text: string): string {
  if (!/^[-0-9TZ:.,{}a-z]*$/.test(text)) throw new Error(`export: unexpected characters in a SQL literal: ${text}`);
  return `'${text}'`;
}

/**
 * A COPY statement's query: each row led by its UTC day (YYYY-MM-DD, the first CSV field, which
 * splitCsvChunks cuts on), sorted by that day and then by the table's key. The server sorts (in
 * parallel, spilling to its own disk), so each day arrives whole and in its final order: the
 * exporting side turns it into a file as it comes, without holding or sorting anything.
 */
export function sortedByDay(input: {
  list: readonly string[];
  from: string;
  at: string;
  keys: readonly string[];
  selection: DaySelection;
  window?: string;
}): string {
  const window = input.window === undefined ? '' : ` window ${input.window}`;
  return (
    `select ${dayText(input.at)}, ${input.list.join(', ')} from ${input.from} where ${selectionCondition(input.at, input.selection)}${window} ` +
    `order by ${[dayDate(input.at), ...input.keys].join(', ')}`
  );
}

/**
 * An exported table's select (ExportTable.select) when its rows are read as they are: its columns
 * and its key from `relation` (quoted SQL text) under `alias`, partitioned on `alias`.`at` (a quoted
 * column).
 */
export function selectRowsByDay(
  table: Pick<ExportTable, 'columns' | 'orderBy'>,
  source: { relation: string; alias: string; at: string },
  selection: DaySelection,
): string {
  const { relation, alias, at } = source;
  return sortedByDay({
    list: table.columns.map((c) => pgCsvExpression(c, alias)),
    from: `${relation} ${alias}`,
    at: `${alias}.${at}`,
    keys: table.orderBy.map((k) => `${alias}.${quoteIdentifier(k)}`),
    selection,
  });
}
