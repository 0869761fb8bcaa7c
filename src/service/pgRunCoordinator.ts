import type { Sql } from '../db/connect.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import { claimTick } from '../sql/coordination/claimTick.js';

/** node-cron's hook for running a tick on one instance only (its `RunCoordinator` interface). */
export interface RunCoordinator {
  shouldRun(key: string, ttlMs: number): Promise<boolean>;
}

/**
 * Elects, for each scheduled tick of `job`, the one instance that runs it: the first to insert the
 * tick into prediction.job_ticks. node-cron keys a tick as "<prefix>:<slot ISO time>".
 */
export function pgRunCoordinator(sql: Sql, job: string, instanceId: string, now: () => Date): RunCoordinator {
  return {
    async shouldRun(key) {
      const slot = /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/.exec(key)?.[1];
      if (!slot) throw new Error(`Unexpected node-cron tick key ${JSON.stringify(key)}`);
      return withStatementDeadline(sql, 'claiming a tick', () => claimTick(sql, job, new Date(slot), instanceId, now()));
    },
  };
}
