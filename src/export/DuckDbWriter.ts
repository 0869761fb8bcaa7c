import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

import { quoteIdentifier as quote } from '../sql/core/sqlNames.js';
import { csvReadType, parquetValue } from './columnTransfer.js';
import type { ExportTable } from './ExportTable.js';

export interface WriterOptions {
  /** Where DuckDB spills what does not fit in memoryLimit. */
  tempDirectory: string;
  /**
   * DuckDB's memory_limit in MiB. Default 64: with what DuckDB does not count (~100 MB) and Node's
   * own, it bounds the RSS. A day holding a longer record gets what its buffers need on top, for
   * that day only: one large record (a market's raw of tens of MB) must not stop the export.
   */
  memoryLimitMib?: number;
  /** Default 2. */
  threads?: number;
}

/** What one partition file holds. */
export interface WrittenPartition {
  rows: number;
  /** Earliest and latest partition-column value, ISO with microseconds; null when empty. */
  minAt: string | null;
  maxAt: string | null;
}

/** A one-line SQL string literal. */
const text = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/**
 * A path DuckDB's readers take for itself, not for a pattern: they glob every path, so `[`, `*`
 * and `?` (an --out of `d/run[1]`) would match other files (`d/run1`). Each goes into a one-character
 * class of its own, which matches just it.
 */
export const literalPath = (path: string): string => path.replace(/[[*?]/g, (c) => `[${c}]`);

const MIB = 1024 * 1024;
const DEFAULT_MEMORY_LIMIT_MIB = 64;

/** The column runExport puts first in every CSV record: the record's UTC day, which splitCsvChunks cuts on. */
export const DAY_COLUMN = 'export_day';

/**
 * The DuckDB side of an export: turns the CSV chunks of one day, in the order Postgres sorted them,
 * into that day's Parquet file (zstd), converting each field to its exact type on the way. No table
 * is kept: memory stays at DuckDB's CSV reader and Parquet writer.
 */
export class DuckDbWriter {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly memoryLimitMib: number,
  ) {
    this.currentLimitMib = memoryLimitMib;
  }

  /** The memory_limit now set. */
  private currentLimitMib: number;

  static async open(options: WriterOptions): Promise<DuckDbWriter> {
    // Loaded here, not on import: its native bindings are needed by `export` alone, and every other
    // command (`--help` included) must run where they are missing or cannot load.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(':memory:', {
      memory_limit: `${options.memoryLimitMib ?? DEFAULT_MEMORY_LIMIT_MIB}MB`,
      threads: String(options.threads ?? 2),
      temp_directory: options.tempDirectory,
      // Keeps the rows in the order Postgres sorted them: a file's bytes depend only on its rows.
      preserve_insertion_order: 'true',
    });
    const connection = await instance.connect();
    try {
      // Days are UTC days, whatever the machine's time zone.
      await connection.run("SET TimeZone = 'UTC'");
    } catch (error) {
      connection.closeSync();
      instance.closeSync();
      throw error;
    }
    return new DuckDbWriter(instance, connection, options.memoryLimitMib ?? DEFAULT_MEMORY_LIMIT_MIB);
  }

  /**
   * Writes the CSV `files` (one day of `table`, Postgres CSV: "" is an empty string, an unquoted
   * empty field null) to the Parquet file `target`. The parallel CSV reader could split a record at
   * a quoted line break, so files with quotes are read by one thread. Buffers are sized to the
   * longest record: DuckDB's default (16 MB a thread) shows in the RSS.
   */
  async writeDay(
    table: ExportTable,
    files: readonly string[],
    chunks: { maxRecordBytes: number; hasQuotes: boolean },
    target: string,
  ): Promise<WrittenPartition> {
    const maxLine = Math.max(MIB / 4, 2 ** Math.ceil(Math.log2(chunks.maxRecordBytes + 2)));
    const bufferBytes = Math.max(MIB, 2 * maxLine);
    // The CSV reader holds buffers of this size and copies of them (it asked for 2 of 64 MiB for a
    // record of 24 MB): past the default buffer, four of them on top of the usual limit.
    await this.setMemoryLimit(this.memoryLimitMib + (bufferBytes > MIB ? Math.ceil((4 * bufferBytes) / MIB) : 0));
    const columns = [`${text(DAY_COLUMN)}: 'VARCHAR'`, ...table.columns.map((c) => `${text(c.name)}: ${text(csvReadType(c))}`)];
    const source =
      `read_csv([${files.map((f) => text(literalPath(f))).join(', ')}], header = false, delim = ',', quote = '"', escape = '"', new_line = '\\n', ` +
      `columns = {${columns.join(', ')}}, auto_detect = false, allow_quoted_nulls = false, strict_mode = true, ` +
      `max_line_size = ${maxLine}, buffer_size = ${bufferBytes}, parallel = ${chunks.hasQuotes ? 'false' : 'true'})`;
    const values = table.columns.map((c) => `${parquetValue(c, table.name, table.columns[0]!.name)} AS ${quote(c.name)}`).join(', ');
    const copied = await this.connection.run(
      `COPY (SELECT ${values} FROM ${source}) TO ${text(target)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    const at = quote(table.partitionColumn);
    const iso = (x: string) => `strftime(${x}, '%Y-%m-%dT%H:%M:%S.%fZ')`;
    const reader = await this.connection.runAndReadAll(
      `SELECT ${iso(`min(${at})`)}, ${iso(`max(${at})`)} FROM read_parquet(${text(literalPath(target))})`,
    );
    const [minAt, maxAt] = (reader.getRows()[0] ?? [null, null]) as [string | null, string | null];
    return { rows: copied.rowsChanged, minAt, maxAt };
  }

  private async setMemoryLimit(mib: number): Promise<void> {
    if (mib === this.currentLimitMib) return;
    await this.connection.run(`SET memory_limit = '${mib}MB'`);
    this.currentLimitMib = mib;
  }

  /** Stops a running statement (a signal's stop); the statement then fails. */
  interrupt(): void {
    this.connection.interrupt();
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
