import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { migrate } from '../../db/migrate.js';
import { resolveDatabase } from '../../db/resolveDatabase.js';
import { ExitCode } from '../exitCodes.js';
import { onShutdownSignal } from '../onShutdownSignal.js';

export function registerMigrate(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('migrate')
    .description('apply pending database migrations (one process at a time) and exit')
    .action(async () => {
      const target = await resolveDatabase(deps.getConfig());
      if (target.embedded) process.stderr.write(`prediction-ingest: embedded Postgres at ${target.url}\n`);
      // A migration is one transaction: stopping the server mid-way rolls it back cleanly.
      const removeSignals = onShutdownSignal(() => void target.release().finally(() => process.exit(ExitCode.interrupted)));
      try {
        const { applied, total, tempRestricted } = await migrate(target.url);
        process.stdout.write(
          applied === 0 ? `Database is up to date (${total} migrations).\n` : `Applied ${applied} migration(s); ${total} in total.\n`,
        );
        if (!tempRestricted) {
          process.stderr.write(
            'prediction-ingest: every login may still create temporary tables in this database: only its owner can ' +
              'change that (REVOKE TEMPORARY ON DATABASE ... FROM PUBLIC), and this role is not the owner\n',
          );
        }
      } finally {
        removeSignals();
        await target.release();
      }
    });
}
