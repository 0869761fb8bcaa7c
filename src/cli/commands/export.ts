import type { Command } from 'commander';

import type { Config } from '../../config.js';
import { EXPORT_TABLES, TABLE_CHOICES } from '../../export/exportTables.js';
import { listOf, nonEmpty } from '../optionParsers.js';
import { TIME_FORMATS, timeArgument } from '../parseTime.js';
import type { ExportCommandOptions } from './exportAction.js';

const DEFAULT_TABLES = EXPORT_TABLES.filter((t) => !t.optional).map((t) => t.name);

export function registerExport(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('export')
    .description(
      'write the history to Parquet through DuckDB (one directory per table, one file per UTC day, manifest.json); ' +
        'a second export into the same directory rewrites only the days that changed',
    )
    .requiredOption('--out <dir>', 'output directory (created if missing)', nonEmpty)
    .option('--since <time>', `history from the UTC day of this instant: ${TIME_FORMATS}`, timeArgument)
    .option('--until <time>', 'history before this instant, through the end of its UTC day (the same forms as --since)', timeArgument)
    .option(
      '--tables <list>',
      `comma-separated tables to export (default: ${DEFAULT_TABLES.join(',')}; also orderbook_levels, alias levels)`,
      listOf(TABLE_CHOICES),
    )
    // The action and the export it runs (DuckDB among them) are loaded only when `export` runs.
    .action(async (opts: ExportCommandOptions) => {
      const { exportAction } = await import('./exportAction.js');
      await exportAction(opts, deps);
    });
}
