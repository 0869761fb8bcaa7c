import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

import type postgres from 'postgres';

import { HOW_TO_GET_DATA } from '../domain/howToGetData.js';
import { onCitus } from '../sql/core/onCitus.js';
import { lockRetainedTables } from '../sql/export/lockRetainedTables.js';
import { releaseExportLock } from '../sql/export/releaseExportLock.js';
import { type SavedPartition, saveExportState } from '../sql/export/saveExportState.js';
import { selectExportPartitions } from '../sql/export/selectExportPartitions.js';
import { selectExportWatermarks } from '../sql/export/selectExportWatermarks.js';
import { selectHistoryHorizons } from '../sql/export/selectHistoryHorizons.js';
import { tryExportLock } from '../sql/export/tryExportLock.js';
import { buildManifest } from './buildManifest.js';
import { DuckDbWriter, type WriterOptions } from './DuckDbWriter.js';
import { writeFileDurably } from './durableFiles.js';
import { exporterVersion } from './exporterVersion.js';
import { exportLayout } from './exportLayout.js';
import { type ExportProgress, noProgress } from './exportProgress.js';
import type { ExportTable } from './ExportTable.js';
import { EXPORT_TABLES } from './exportTables.js';
import { createOutputDirectory, ExportPathError } from './outputDirectory.js';
import { type DayRange, inDayRange, type RecordedPartition } from './planPartitions.js';
import { isMigrated, readSchemaVersion } from './schemaVersion.js';
import { readSnapshot } from './snapshotHorizon.js';
import { symbolicLinkBelow } from './symbolicLinkBelow.js';
import { type TableWritten, writeTable } from './writeTable.js';

export interface ExportOptions {
  /** Absolute path of the output directory. */
  outDir: string;
  tables: readonly ExportTable[];
  /** UTC days of the history tables to examine (whole days overlapping --since/--until). */
  range: DayRange;
  progress?: ExportProgress;
  signal?: AbortSignal;
  /** Bytes of CSV per chunk loaded into DuckDB. Default 32 MiB. */
  chunkBytes?: number;
  writer?: Omit<WriterOptions, 'tempDirectory'>;
  now?: () => Date;
}

export interface TableOutcome {
  table: string;
  filesWritten: number;
  rowsWritten: number;
  unchanged: number;
  removed: number;
  /** Days retention dropped from the database whose files the export keeps. */
  archived: number;
}

export interface ExportResult {
  tables: TableOutcome[];
  manifest: string;
}

/** Another export holds the output directory. */
export class ExportBusyError extends Error {
  override name = 'ExportBusyError';
}

export { ExportPathError } from './outputDirectory.js';

/**
 * The database lacks migrations this build ships: its views may lack columns the export reads. The
 * export does not migrate it itself: a migration can hold the writers up for minutes (0013 copies
 * the history tables), which is for an operator to decide (`migrate`).
 */
export class ExportNotMigratedError extends Error {
  override name = 'ExportNotMigratedError';
}

/** The hidden folder of work files inside the output directory: on its file system, so renames are atomic. */
export const WORK_DIR = '.export-tmp';

/**
 * Exports `tables` into `outDir` as Parquet, rewriting only the day partitions that changed since
 * the last export into it (see planPartitions). Crash-safe: files are replaced by rename, the
 * manifest after them, and the database records the export last; an export killed at any point
 * leaves the previous record, from which the next one rewrites the same partitions.
 */
export async function runExport(sql: postgres.Sql, options: ExportOptions): Promise<ExportResult> {
  const { outDir, range } = options;
  const progress = options.progress ?? noProgress;
  const now = options.now ?? (() => new Date());
  const version = exporterVersion();
  const work = join(outDir, WORK_DIR);
  const chunkDir = join(work, 'files');

  // Locked by what the directory is, not by how it is named: through a bind mount or a link, the
  // same directory under another path is still the same lock.
  await createOutputDirectory(outDir, options.signal);
  const { dev, ino } = await stat(outDir, { bigint: true });
  const lockKey = `${dev}:${ino}`;
  const lock = await sql.reserve();
  try {
    if (!(await tryExportLock(lock, lockKey))) throw new ExportBusyError(`another export is writing into ${outDir}`);
    try {
      const link = await symbolicLinkBelow(outDir);
      if (link !== undefined) {
        throw new ExportPathError(
          `${outDir} holds a symbolic link, ${link}: the export writes only inside it; remove the link and run again`,
        );
      }
      // What a killed export left behind is of no use: its files were never renamed into place.
      await rm(work, { recursive: true, force: true });
      for (const dir of [chunkDir, join(work, 'duckdb')]) await mkdir(dir, { recursive: true });
      const schema = await readSchemaVersion(sql);
      if (!isMigrated(schema)) {
        throw new ExportNotMigratedError(
          schema.migrations === 0
            ? `the database holds no data: it was never migrated, nothing has run against it; ${HOW_TO_GET_DATA}`
            : `the database has ${schema.migrations} of this version's migrations: run \`migrate\` (or start the service) before exporting`,
        );
      }
      const layouts = new Map(options.tables.map((t) => [t.name, exportLayout(t, schema)]));
      const stored = await selectExportWatermarks(sql, outDir);
      const citus = await onCitus(sql);
      // A table whose files were written in another layout is rewritten whole, as if never exported.
      const relayout = new Set(stored.filter((w) => w.layout !== layouts.get(w.tableName)).map((w) => w.tableName));
      const watermarks = new Map(stored.filter((w) => !relayout.has(w.tableName)).map((w) => [w.tableName, String(w.snapshotXmin)]));
      const recorded = new Map<string, Map<string, RecordedPartition>>();
      for (const p of await selectExportPartitions(sql, outDir)) {
        if (!recorded.has(p.tableName)) recorded.set(p.tableName, new Map());
        recorded.get(p.tableName)!.set(p.day, p);
      }

      const writer = await DuckDbWriter.open({ ...options.writer, tempDirectory: join(work, 'duckdb') });
      const stop = () => writer.interrupt();
      options.signal?.addEventListener('abort', stop, { once: true });
      try {
        const { snapshot, tables } = await sql.begin('isolation level repeatable read read only', async (tx) => {
          // Before the snapshot: retention drops no month from under it (lockRetainedTables).
          await lockRetainedTables(tx);
          await tx.unsafe(`set local timezone = 'UTC'`);
          await tx.unsafe(`set local datestyle = 'ISO, YMD'`);
          const snapshot = await readSnapshot(tx);
          const horizons = new Map((await selectHistoryHorizons(tx)).map((h) => [h.tableName, h.horizon.toISOString().slice(0, 10)]));
          const tables: { table: ExportTable; result: TableWritten }[] = [];
          for (const table of options.tables) {
            options.signal?.throwIfAborted();
            // On Citus a shard's rows carry its worker's transaction ids, which no horizon taken on
            // the coordinator can be compared with: every day counts as changed there.
            const watermark = citus ? undefined : watermarks.get(table.name);
            const result = await writeTable(tx, writer, table, {
              // A new layout rewrites every recorded day, whatever --since and --until say.
              range: relayout.has(table.name) ? { fromDay: null, toDay: null } : range,
              outDir,
              workDir: chunkDir,
              chunkBytes: options.chunkBytes ?? 32 * 1024 * 1024,
              recorded: recorded.get(table.name) ?? new Map(),
              watermark,
              archivedBefore: table.retainedIn === null ? null : (horizons.get(table.retainedIn) ?? null),
              snapshot,
              progress,
              signal: options.signal,
            });
            tables.push({ table, result });
          }
          return { snapshot, tables };
        });
        progress.stop();
        const written = tables.flatMap((t) => t.result.written);
        const removed = tables.flatMap((t) => t.result.plan.remove.map((day) => ({ tableName: t.table.name, day })));
        const after = applyChanges(recorded, written, removed);
        const manifest = buildManifest({ tables: EXPORT_TABLES, partitions: after, schema, exporterVersion: version });
        await writeFileDurably(join(work, 'manifest.partial'), join(outDir, 'manifest.json'), manifest);
        options.signal?.throwIfAborted();
        await sql.begin((tx) =>
          saveExportState(tx, {
            outDir,
            written,
            removed,
            watermarks: nextWatermarks(tables, after, watermarks, snapshot.xmin).map((w) => ({ ...w, layout: layouts.get(w.tableName)! })),
            exporterVersion: version,
            now: now(),
          }),
        );
        return {
          tables: tables.map(({ table, result }) => ({
            table: table.name,
            filesWritten: result.written.filter((p) => p.rows > 0).length,
            rowsWritten: result.written.reduce((n, p) => n + p.rows, 0),
            unchanged: result.plan.unchanged.length,
            removed: result.plan.remove.length,
            archived: result.plan.archived.length,
          })),
          manifest: join(outDir, 'manifest.json'),
        };
      } finally {
        options.signal?.removeEventListener('abort', stop);
        writer.close();
      }
    } finally {
      progress.stop();
      await rm(work, { recursive: true, force: true });
      // A session that died has released its advisory lock with it: nothing to report over the
      // export's own outcome.
      await releaseExportLock(lock, lockKey).catch(() => {});
    }
  } finally {
    lock.release();
  }
}

/** The partitions of the output directory once this export's changes are in. */
function applyChanges(
  recorded: ReadonlyMap<string, ReadonlyMap<string, RecordedPartition>>,
  written: readonly SavedPartition[],
  removed: readonly { tableName: string; day: string }[],
): Map<string, RecordedPartition[]> {
  const byTable = new Map<string, Map<string, RecordedPartition>>();
  for (const [table, days] of recorded) byTable.set(table, new Map(days));
  for (const p of written) {
    if (!byTable.has(p.tableName)) byTable.set(p.tableName, new Map());
    byTable.get(p.tableName)!.set(p.day, p);
  }
  for (const r of removed) byTable.get(r.tableName)?.delete(r.day);
  return new Map([...byTable].map(([table, days]) => [table, [...days.values()]]));
}

/**
 * A table's horizon moves to this export's only when the export examined every partition recorded
 * for it; a narrower --since/--until leaves the older horizon, so that the partitions it did not
 * examine are compared against the changes since then next time (some are then rewritten twice).
 */
function nextWatermarks(
  tables: readonly { table: ExportTable; result: TableWritten }[],
  after: ReadonlyMap<string, readonly RecordedPartition[]>,
  previous: ReadonlyMap<string, string>,
  snapshotXmin: string,
): { tableName: string; snapshotXmin: string }[] {
  const horizons: { tableName: string; snapshotXmin: string }[] = [];
  for (const { table, result } of tables) {
    const examinedAll = (after.get(table.name) ?? []).every((p) => inDayRange(p.day, result.range));
    const horizon = examinedAll ? snapshotXmin : previous.get(table.name);
    if (horizon !== undefined) horizons.push({ tableName: table.name, snapshotXmin: horizon });
  }
  return horizons;
}
