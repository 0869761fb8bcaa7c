import { categoryCounts, closedFeedWatermarks, crawlCoverage, ingestRuns, rejectedRecords, upstreamShapes } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: runs, col: c } = sqlNames(ingestRuns);
const coverage = sqlNames(crawlCoverage);
const rejected = sqlNames(rejectedRecords);
const shapes = sqlNames(upstreamShapes);
const counts = sqlNames(categoryCounts);
const watermarks = sqlNames(closedFeedWatermarks);

/**
 * Runs deleted per call at most, to keep its transaction short: the service's jobs run some 1,600
 * times a day, and a call ends each crawl.
 */
export const PRUNED_RUNS_PER_CALL = 5_000;

/**
 * Deletes up to PRUNED_RUNS_PER_CALL runs that finished more than `keepDays` days ago by the
 * database's clock, oldest first, and returns how many went. Kept whatever their age: each job's latest finished run and
 * latest success (readiness and `status` read them), and runs that other rows name (crawl
 * coverage, the quarantine, recorded shapes, category counts, the closed feed's watermarks): their
 * history stays whole.
 */
export async function pruneIngestRuns(sql: Queryable, keepDays: number): Promise<number> {
  const result = await sql`
      with horizon as (select now() - make_interval(days => ${keepDays}::int) as at),
      keep as (
        select distinct on (r.${sql(c.job)}) r.${sql(c.runId)} as run_id from ${sql(runs)} r
        where r.${sql(c.finishedAt)} is not null order by r.${sql(c.job)}, r.${sql(c.startedAt)} desc, r.${sql(c.runId)} desc
      ),
      keep_success as (
        select distinct on (r.${sql(c.job)}) r.${sql(c.runId)} as run_id from ${sql(runs)} r
        where r.${sql(c.status)} in ('succeeded', 'degraded') order by r.${sql(c.job)}, r.${sql(c.finishedAt)} desc
      ),
      doomed as (
        select r.${sql(c.runId)} as run_id from ${sql(runs)} r, horizon
        where r.${sql(c.finishedAt)} < horizon.at
          and r.${sql(c.runId)} not in (select run_id from keep union all select run_id from keep_success)
          and not exists (select from ${sql(coverage.table)} x where x.${sql(coverage.col.runId)} = r.${sql(c.runId)})
          and not exists (select from ${sql(rejected.table)} x
                           where x.${sql(rejected.col.runId)} = r.${sql(c.runId)} or x.${sql(rejected.col.lastRunId)} = r.${sql(c.runId)})
          and not exists (select from ${sql(shapes.table)} x
                           where x.${sql(shapes.col.firstRunId)} = r.${sql(c.runId)} or x.${sql(shapes.col.lastRunId)} = r.${sql(c.runId)})
          and not exists (select from ${sql(counts.table)} x where x.${sql(counts.col.runId)} = r.${sql(c.runId)})
          and not exists (select from ${sql(watermarks.table)} x where x.${sql(watermarks.col.runId)} = r.${sql(c.runId)})
        order by r.${sql(c.finishedAt)}
        limit ${PRUNED_RUNS_PER_CALL}
      )
      delete from ${sql(runs)} r using doomed d where r.${sql(c.runId)} = d.run_id`;
  return result.count;
}
