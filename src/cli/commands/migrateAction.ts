import type { Config } from '../../config.js';
import { migrate } from '../../db/migrate.js';
import { ExitCode } from '../exitCodes.js';
import { onShutdownSignal } from '../onShutdownSignal.js';
import { resolveDatabaseForCommand } from '../resolveDatabaseForCommand.js';

/** The options of `migrate`. */
export interface MigrateOptions {
  statementTimeoutMin?: number;
}

/** What `migrate` runs: the pending migrations, and what was applied on stdout. */
export async function migrateAction(opts: MigrateOptions, deps: { getConfig: () => Readonly<Config> }): Promise<void> {
  const target = await resolveDatabaseForCommand(deps.getConfig());
  // A migration is one transaction: stopping the server mid-way rolls it back cleanly.
  const removeSignals = onShutdownSignal(() => void target.release().finally(() => process.exit(ExitCode.interrupted)));
  try {
    const statementTimeoutMs = opts.statementTimeoutMin === undefined ? undefined : opts.statementTimeoutMin * 60_000;
    const { applied, total, tempRestricted } = await migrate(target.url, { statementTimeoutMs });
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
}
