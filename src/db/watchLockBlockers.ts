import { setTimeout as delay } from 'node:timers/promises';

import type postgres from 'postgres';

import { findLockBlockers, type LockBlocker } from '../sql/admin/findLockBlockers.js';
import { terminateSession } from '../sql/admin/terminateSession.js';

/** What became of a blocking session. */
export type BlockerOutcome = 'terminated' | 'not permitted to terminate' | 'left running (it may write)' | 'left running';

export interface SeenBlocker extends LockBlocker {
  outcome: BlockerOutcome;
}

export interface BlockerWatch {
  /** Every session seen blocking, by pid, with what was done about it. */
  readonly seen: ReadonlyMap<number, SeenBlocker>;
  stop(): Promise<void>;
}

/**
 * Looks every `intervalMs` for sessions blocking the session `pid` (a migration waiting for a
 * table lock) and, when `terminateReadOnly`, ends those of logins that cannot write: a reader's
 * open transaction would otherwise hold a migration's ALTER TABLE off, and while that waits every
 * other session of the table queues behind it. Sessions of writers are left alone (they are the
 * app's, and commit within seconds). Each session is tried once.
 */
export function watchLockBlockers(
  sql: postgres.Sql,
  pid: number,
  options: { intervalMs: number; terminateReadOnly: boolean },
): BlockerWatch {
  const seen = new Map<number, SeenBlocker>();
  const stopped = new AbortController();
  const look = async () => {
    for (const blocker of await findLockBlockers(sql, pid)) {
      if (seen.has(blocker.pid)) continue;
      let outcome: BlockerOutcome = blocker.readOnly ? 'left running' : 'left running (it may write)';
      if (blocker.readOnly && options.terminateReadOnly) {
        outcome = (await terminateSession(sql, blocker.pid)) ? 'terminated' : 'not permitted to terminate';
      }
      seen.set(blocker.pid, { ...blocker, outcome });
    }
  };
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      // A failed look is retried at the next interval: the migration's lock_timeout bounds the wait anyway.
      await look().catch(() => {});
      await delay(options.intervalMs, undefined, { signal: stopped.signal }).catch(() => {});
    }
  })();
  return {
    seen,
    stop: async () => {
      stopped.abort();
      await loop;
    },
  };
}
