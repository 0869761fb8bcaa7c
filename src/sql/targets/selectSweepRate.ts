import { ingestRuns } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(ingestRuns);

/**
 * Requests a second the latest `runs` finished runs of the job of run `runId` sent while they ran
 * (their requests over their durations, the run itself excluded): what the next run of the job can
 * expect to send. Null when none has finished yet.
 */
export async function selectSweepRate(sql: Queryable, runId: number, runs = 5): Promise<number | null> {
  const [row] = await sql<{ perSec: number | null }[]>`
    select (sum(r.${sql(c.requests)}) / nullif(sum(extract(epoch from r.${sql(c.finishedAt)} - r.${sql(c.startedAt)})), 0))::float8 as "perSec"
    from (
      select r.* from ${sql(table)} r
      where r.${sql(c.job)} = (select ${sql(c.job)} from ${sql(table)} where ${sql(c.runId)} = ${runId})
        and r.${sql(c.runId)} <> ${runId} and r.${sql(c.finishedAt)} is not null and r.${sql(c.requests)} > 0
      order by r.${sql(c.runId)} desc limit ${runs}
    ) r`;
  return row?.perSec ?? null;
}
