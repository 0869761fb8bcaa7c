import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

import type { Queryable } from '../sql/core/queryable.js';
import type { SavedPartition } from '../sql/export/saveExportState.js';
import { partitionPath } from './buildManifest.js';
import type { DuckDbWriter } from './DuckDbWriter.js';
import { removeFile, replaceFile } from './durableFiles.js';
import type { ExportProgress } from './exportProgress.js';
import type { DayCount, DaySelection, ExportTable } from './ExportTable.js';
import { type DayRange, type PartitionPlan, planPartitions, type RecordedPartition } from './planPartitions.js';
import { horizon32, type SnapshotBounds } from './snapshotHorizon.js';
import { type CsvChunk, splitCsvChunks } from './splitCsvChunks.js';
import { resumeConnection, stopCopyOut } from './stopCopyOut.js';
import { dayStart, nextDay } from './utcDays.js';

export interface TableInput {
  /** The export's days; an unranged table is examined whole. */
  range: DayRange;
  outDir: string;
  /** Work folder for CSV chunks and unfinished Parquet files, on the output directory's file system. */
  workDir: string;
  chunkBytes: number;
  recorded: ReadonlyMap<string, RecordedPartition>;
  /** The horizon the last export into outDir stored for this table (xid8 text), if any. */
  watermark: string | undefined;
  /** Retention's horizon for the table's days (ExportTable.retainedIn), as YYYY-MM-DD; null: nothing dropped. */
  archivedBefore: string | null;
  snapshot: SnapshotBounds;
  progress: ExportProgress;
  signal?: AbortSignal | undefined;
}

export interface TableWritten {
  /** The days examined (the range, or every day). */
  range: DayRange;
  plan: PartitionPlan;
  written: SavedPartition[];
}

/**
 * Exports one table inside the export's repeatable-read transaction `tx`: plans its partitions,
 * streams the rows of the days to write (COPY ... TO STDOUT, sorted by day), and writes each day's
 * file as soon as its rows are in, aside and then renamed over the old one. Days without rows lose
 * their file, but for those retention dropped.
 */
export async function writeTable(tx: Queryable, writer: DuckDbWriter, table: ExportTable, input: TableInput): Promise<TableWritten> {
  const range = table.ranged ? input.range : { fromDay: null, toDay: null };
  const current = await table.days(tx, {
    from: range.fromDay === null ? '-infinity' : dayStart(range.fromDay),
    to: range.toDay === null ? 'infinity' : dayStart(range.toDay),
    horizon: horizon32(input.watermark, input.snapshot),
  });
  const sizes = await fileSizes(input.outDir, table.name, [...current.map((d) => d.day), ...input.recorded.keys()]);
  const plan = planPartitions({
    current,
    recorded: input.recorded,
    fileBytes: (day) => sizes.get(day) ?? 0,
    range,
    carryForward: table.changesCarryForward,
    archivedBefore: input.archivedBefore,
  });
  const written: SavedPartition[] = [];
  for (const day of plan.write.filter((d) => d.rows === 0)) {
    await removeFile(join(input.outDir, partitionPath(table.name, day.day)));
    written.push({ tableName: table.name, day: day.day, rows: 0, fileBytes: 0, minAt: null, maxAt: null });
  }
  for (const day of plan.remove) await removeFile(join(input.outDir, partitionPath(table.name, day)));

  const days = plan.write.filter((d) => d.rows > 0);
  if (days.length > 0) {
    input.progress.start(
      table.name,
      'rows',
      days.reduce((n, d) => n + d.rows, 0),
    );
    written.push(...(await copyDays(tx, writer, table, days, current, input)));
  }
  return { range, plan, written };
}

/** Streams `days` of the table out of Postgres and writes a Parquet file per day. */
async function copyDays(
  tx: Queryable,
  writer: DuckDbWriter,
  table: ExportTable,
  days: readonly DayCount[],
  current: readonly DayCount[],
  input: TableInput,
): Promise<SavedPartition[]> {
  const expected = new Map(days.map((d) => [d.day, d.rows]));
  // Only the days to write; a plain range when they are every day of it that holds rows.
  const first = days[0]!.day;
  const last = days.at(-1)!.day;
  const span = current.filter((d) => d.day >= first && d.day <= last && d.rows > 0).length;
  const selection: DaySelection = {
    from: dayStart(first),
    to: dayStart(nextDay(last)),
    days: span === days.length ? null : days.map((d) => d.day),
  };

  const written: SavedPartition[] = [];
  let pending: CsvChunk[] = [];
  const writeDay = async (chunks: CsvChunk[]) => {
    const day = chunks[0]!.day;
    const rows = expected.get(day);
    // Not *.parquet: a reader globbing the whole directory must not pick up a file being written.
    const temporary = join(input.workDir, `${table.name}-${day}.partial`);
    const flags = { maxRecordBytes: Math.max(...chunks.map((c) => c.maxRecordBytes)), hasQuotes: chunks.some((c) => c.hasQuotes) };
    const file = await writer.writeDay(
      table,
      chunks.map((c) => c.file),
      flags,
      temporary,
    );
    for (const chunk of chunks) await rm(chunk.file, { force: true });
    // The days query and the COPY read one snapshot: a difference is a bug in one of them.
    if (file.rows !== rows)
      throw new Error(`export: ${table.name} ${day}: the database counted ${rows ?? 0} rows, the copy gave ${file.rows}`);
    const final = join(input.outDir, partitionPath(table.name, day));
    await replaceFile(temporary, final);
    const { size } = await stat(final);
    written.push({ tableName: table.name, day, rows: file.rows, fileBytes: size, minAt: file.minAt, maxAt: file.maxAt });
  };

  const query = tx.unsafe(`copy (${table.select(selection)}) to stdout (format csv)`);
  const stream = await query.readable();
  try {
    await splitCsvChunks(stream, {
      fileFor: (i) => join(input.workDir, `${table.name}-${i}.csv`),
      chunkBytes: input.chunkBytes,
      onRecords: (n) => input.progress.advance(n),
      signal: input.signal,
      load: async (chunk) => {
        pending.push(chunk);
        if (!chunk.endsDay) return;
        const chunks = pending;
        pending = [];
        await writeDay(chunks);
      },
    });
  } catch (error) {
    await stopCopyOut(tx, query, stream);
    throw error;
  } finally {
    resumeConnection(stream);
  }
  const missing = days.filter((d) => !written.some((w) => w.day === d.day));
  if (missing.length > 0) throw new Error(`export: ${table.name}: the copy gave no row for ${missing.map((d) => d.day).join(', ')}`);
  return written;
}

/** The sizes of the table's partition files that exist. */
async function fileSizes(outDir: string, table: string, days: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const day of new Set(days)) {
    const size = await stat(join(outDir, partitionPath(table, day))).then(
      (s) => s.size,
      () => undefined,
    );
    if (size !== undefined) sizes.set(day, size);
  }
  return sizes;
}
