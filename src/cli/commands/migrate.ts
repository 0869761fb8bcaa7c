import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { migrate } from '../../db/migrate.js';
import { resolveDatabase } from '../../db/openDatabase.js';

export function registerMigrate(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('migrate')
    .description('apply pending database migrations (under an advisory lock) and exit')
    .action(async () => {
      const target = await resolveDatabase(deps.getConfig());
      try {
        const { applied, total } = await migrate(target.url);
        process.stdout.write(
          applied === 0 ? `Database is up to date (${total} migrations).\n` : `Applied ${applied} migration(s); ${total} in total.\n`,
        );
      } finally {
        await target.release();
      }
    });
}
