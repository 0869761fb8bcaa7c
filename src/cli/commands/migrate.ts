import type { Command } from 'commander';

import type { Config } from '../../config.js';
import { integer } from '../optionParsers.js';
import type { MigrateOptions } from './migrateAction.js';

export function registerMigrate(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('migrate')
    .description('apply pending database migrations (one process at a time) and exit')
    .option(
      '--statement-timeout-min <n>',
      'longest a statement of a migration may run, in minutes (default 15; raise it for a large database)',
      integer(1, 24 * 60),
    )
    // The action and the migrator are loaded only when `migrate` runs.
    .action(async (opts: MigrateOptions) => {
      const { migrateAction } = await import('./migrateAction.js');
      await migrateAction(opts, deps);
    });
}
