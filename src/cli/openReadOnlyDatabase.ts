import type { Config } from '../config.js';
import { connect, type Sql } from '../db/connect.js';
import type { DatabaseLocation } from '../db/resolveDatabase.js';
import { ExitCode } from './exitCodes.js';
import { onShutdownSignal } from './onShutdownSignal.js';
import { resolveDatabaseForCommand } from './resolveDatabaseForCommand.js';

/** The database of a read-only command, and how to let go of it. */
export interface ReadOnlyDatabase {
  sql: Sql;
  /** Removes the signal handlers, ends the pool, and stops the embedded server if this process started it. */
  close(): Promise<void>;
}

/**
 * The database of a read-only command (`status`, `plan`): one connection, named `prediction-ingest
 * <command>` in pg_stat_activity. A stop has nothing to finish, only the embedded server (if this
 * process started it) to stop, and the command exits as interrupted (130): left to the default, the
 * signal ended the process and not the server, which ran on.
 */
export async function openReadOnlyDatabase(
  config: DatabaseLocation & Pick<Config, 'databaseStatementTimeoutSec'>,
  command: string,
): Promise<ReadOnlyDatabase> {
  const target = await resolveDatabaseForCommand(config);
  const removeSignals = onShutdownSignal(() => void target.release().finally(() => process.exit(ExitCode.interrupted)));
  const database = connect(target.url, {
    max: 1,
    applicationName: `prediction-ingest ${command}`,
    statementTimeoutMs: config.databaseStatementTimeoutSec * 1000,
  });
  return {
    sql: database.sql,
    close: async () => {
      removeSignals();
      try {
        await database.close();
      } finally {
        await target.release();
      }
    },
  };
}
