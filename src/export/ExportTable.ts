import type { Queryable } from '../sql/core/queryable.js';
import type { ExportColumn } from './exportColumns.js';

/** One UTC day of a table as the database holds it now. */
export interface DayCount {
  /** YYYY-MM-DD. */
  day: string;
  rows: number;
  /** Whether a row of the day may differ from what the last export wrote (see DayQuery.horizon). */
  changed: boolean;
}

export interface DayQuery {
  /** Bounds on the partition column, whole UTC days: [from, to). ISO instants or -infinity / infinity. */
  from: string;
  to: string;
  /**
   * A 32-bit transaction id: a row written by it or a later transaction counts as changed, as does a
   * row whose derived values (a valid_to) such a row changed. Null: every row counts as changed.
   */
  horizon: string | null;
}

/** The rows to read: the partition column in [from, to), and of those only `days` (YYYY-MM-DD) unless null. */
export interface DaySelection {
  from: string;
  to: string;
  days: readonly string[] | null;
}

/**
 * An exported table: a directory of day partitions, `name/date=YYYY-MM-DD/part-0.parquet`, each
 * holding the rows whose partition column falls on that UTC day, sorted by `orderBy`.
 */
export interface ExportTable {
  /** Directory name and --tables name; the analytics view's name where one exists. */
  readonly name: string;
  /** Where the rows come from, for the manifest (e.g. analytics.price_history). */
  readonly source: string;
  readonly columns: readonly ExportColumn[];
  /** A timestamp column: its UTC day is the partition. */
  readonly partitionColumn: string;
  /** A unique key: the order of the rows in a file, so that a file's bytes depend only on its rows (Postgres sorts). */
  readonly orderBy: readonly string[];
  /** History follows --since/--until; a table of one row per market or event is always exported whole. */
  readonly ranged: boolean;
  /** Whether a change on one day can change rows of later days (data_coverage's previous-crawl columns). */
  readonly changesCarryForward: boolean;
  /** Left out unless asked for by name (--tables). */
  readonly optional: boolean;
  /**
   * The partitioned table whose retention drops this table's days (a table_name of
   * prediction.dropped_partitions), or null. The files of days it dropped stay in the export,
   * which then holds their only copy.
   */
  readonly retainedIn: string | null;
  /** The days in [from, to) that hold rows, with their counts and whether they changed. */
  days(sql: Queryable, query: DayQuery): Promise<DayCount[]>;
  /**
   * The rows of `selection` as SQL text with literals only (it becomes a COPY statement): each led by
   * its UTC day as YYYY-MM-DD, then `columns` in order; sorted by the day, then by `orderBy` (sortedByDay).
   */
  select(selection: DaySelection): string;
}
