import { ingestRuns } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: runs, col: c } = sqlNames(ingestRuns);

export interface RunCount {
  job: string;
  /** running, succeeded, degraded, failed or aborted. */
  status: string;
  runs: number;
}

/** How many runs of each job started at or after `since`, by status. */
export async function selectRunCountsSince(sql: Queryable, since: Date): Promise<RunCount[]> {
  return sql<RunCount[]>`
    select ${sql(c.job)} as job, ${sql(c.status)} as status, count(*)::int as runs
    from ${sql(runs)} where ${sql(c.startedAt)} >= ${since}::timestamptz
    group by 1, 2 order by 1, 2`;
}
