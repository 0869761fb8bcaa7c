import type { SeenBlocker } from './watchLockBlockers.js';

/**
 * A migration could not get a table lock in any of its attempts. The message names the sessions
 * that held it up and what became of them; the cause is the server's lock_not_available error
 * (SQLSTATE 55P03), so the CLI exits 4 (database).
 */
export class MigrationBlockedError extends Error {
  override name = 'MigrationBlockedError';
  constructor(
    attempts: number,
    lockTimeoutMs: number,
    readonly blockers: readonly SeenBlocker[],
    options: { cause: unknown },
  ) {
    super(
      `a table lock it needs was not granted in ${attempts} attempt(s) of ${lockTimeoutMs} ms; ` +
        (blockers.length === 0 ? 'no blocking session was caught in the act' : `held up by ${blockers.map(describe).join('; ')}`) +
        hint(blockers),
      options,
    );
  }
}

function describe(b: SeenBlocker): string {
  const since = b.transactionStart ? ` since ${b.transactionStart.toISOString()}` : '';
  return `pid ${b.pid} (login ${JSON.stringify(b.user)}, application ${JSON.stringify(b.application)}, ${b.state ?? 'state unknown'}${since}, ${b.readOnly ? 'read-only' : 'may write'}: ${b.outcome})`;
}

function hint(blockers: readonly SeenBlocker[]): string {
  const refused = blockers.filter((b) => b.outcome === 'not permitted to terminate');
  if (refused.length === 0) return '';
  return (
    `. End ${refused.length === 1 ? 'that session' : 'those sessions'} (SELECT pg_terminate_backend(pid)) and start again, ` +
    'or let this role end read-only sessions itself: GRANT pg_signal_backend TO <this role>'
  );
}
