import { resolve } from 'node:path';

import type { Config } from '../../config.js';
import { openPool } from '../../db/openPool.js';
import { ROLE_SETTINGS } from '../../db/sessionSettings.js';
import { HOW_TO_GET_DATA } from '../../domain/howToGetData.js';
import { progressBar } from '../../export/exportProgress.js';
import { selectTables } from '../../export/exportTables.js';
import { canonicalPath, checkOutputDirectory, ExportPathError } from '../../export/outputDirectory.js';
import { ExportBusyError, ExportNotMigratedError, type ExportResult, runExport } from '../../export/runExport.js';
import { daysOverlapping } from '../../export/utcDays.js';
import { CliError, usageError } from '../cliError.js';
import { ExitCode } from '../exitCodes.js';
import { onShutdownSignal } from '../onShutdownSignal.js';
import { resolveDatabaseForCommand } from '../resolveDatabaseForCommand.js';

/** The options of `export`, its times parsed. */
export interface ExportCommandOptions {
  out: string;
  since?: Date;
  until?: Date;
  tables?: string[];
}

/** Longest the export may take to close its connections once stopped by a signal, before the process exits anyway. */
const STOP_DEADLINE_MS = 10_000;

/** What `export` runs: the history into `--out`, its summary on stdout. */
export async function exportAction(opts: ExportCommandOptions, deps: { getConfig: () => Readonly<Config> }): Promise<void> {
  if (opts.since && opts.until && opts.since >= opts.until) {
    throw usageError(`--since (${opts.since.toISOString()}) must be before --until (${opts.until.toISOString()})`);
  }
  const outDir = await canonicalPath(resolve(opts.out));
  await checkOutputDirectory(outDir).catch((error: unknown) => {
    throw error instanceof ExportPathError ? usageError(`--out ${error.message}`) : error;
  });
  const target = await resolveDatabaseForCommand(deps.getConfig());
  const stop = new AbortController();
  const removeSignals = onShutdownSignal(() => {
    process.stderr.write('prediction-ingest: stopping the export; files already renamed into place stay valid (again to force)\n');
    stop.abort(new Error('stopped by a signal'));
    // Whatever still runs (a DuckDB or file system call) must not hold the process up.
    setTimeout(() => process.exit(ExitCode.interrupted), STOP_DEADLINE_MS).unref();
  });
  const progress = progressBar(process.stderr);
  let pool: ReturnType<typeof openPool> | undefined;
  try {
    pool = openPool(target.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'prediction-ingest export' });
    const running = runExport(pool.sql, {
      outDir,
      tables: selectTables(opts.tables),
      range: daysOverlapping(opts.since, opts.until),
      progress,
      signal: stop.signal,
    });
    // A signal ends the command at once, whatever the export is waiting for; what it leaves
    // unfinished is the state a killed export leaves (runExport), which the next one repairs.
    running.catch(() => {});
    const result = await Promise.race([running, untilAborted(stop.signal)]);
    process.stdout.write(summary(outDir, result));
    if (result.tables.every((t) => t.filesWritten === 0 && t.unchanged === 0 && t.archived === 0)) {
      // An empty database is not an export that worked: said, and a failure, so a script notices.
      if (opts.since === undefined && opts.until === undefined) {
        throw new CliError(`nothing to export: the database holds no history (no data file written); ${HOW_TO_GET_DATA}`, ExitCode.failure);
      }
      // A range with nothing in it is an answer: the files are absent because the history is.
      process.stderr.write('prediction-ingest: the database holds no history in the range of --since and --until: no data file written\n');
    }
  } catch (error) {
    if (stop.signal.aborted) {
      throw new CliError('export stopped by a signal; run it again to complete it', ExitCode.interrupted, { cause: error });
    }
    if (error instanceof ExportPathError) throw new CliError(`--out ${error.message}`, ExitCode.usage, { cause: error });
    if (error instanceof ExportBusyError || error instanceof ExportNotMigratedError)
      throw new CliError(error.message, ExitCode.failure, { cause: error });
    throw error;
  } finally {
    progress.stop();
    removeSignals();
    await pool?.close();
    await target.release();
  }
}

/** Rejects with the signal's reason once it is aborted. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

function summary(outDir: string, result: ExportResult): string {
  const lines = result.tables.map(
    (t) =>
      `  ${t.table}: ${t.filesWritten} file(s) written (${t.rowsWritten} rows), ${t.unchanged} unchanged` +
      (t.removed > 0 ? `, ${t.removed} removed` : '') +
      (t.archived > 0 ? `, ${t.archived} kept from before the retention horizon` : ''),
  );
  return `export into ${outDir}: manifest ${result.manifest}\n${lines.join('\n')}\n`;
}
