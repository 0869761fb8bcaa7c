import { ingestRuns } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: runs, col: c } = sqlNames(ingestRuns);

export interface JobRequests {
  job: string;
  /**
   * Requests of the job's runs that fall in the window: each finished run that overlaps it counts
   * with the share of its duration inside the window (its requests taken as evenly spread).
   */
  requests: number;
  /** Finished runs overlapping the window. */
  runs: number;
  /** Runs still running that overlap it: their requests are written only when they finish, so they are not counted. */
  running: number;
  /** The start of the job's earliest run overlapping the window: after the window's start when the job began within it. */
  firstStartedAt: Date;
}

/** Requests sent per job in [from, to], estimated from ingest_runs (see JobRequests); jobs with no run overlapping it are absent. */
export async function selectRequestRate(sql: Queryable, from: Date, to: Date): Promise<JobRequests[]> {
  return sql<JobRequests[]>`
    select job, coalesce(sum(requests * share), 0)::float8 as requests,
      (count(*) filter (where finished))::int as runs, (count(*) filter (where not finished))::int as running,
      min(started_at) as "firstStartedAt"
    from (
      select ${sql(c.job)} as job, ${sql(c.requests)} as requests, ${sql(c.finishedAt)} is not null as finished,
        ${sql(c.startedAt)} as started_at,
        case
          when ${sql(c.finishedAt)} is null then 0
          when ${sql(c.finishedAt)} <= ${sql(c.startedAt)} then 1
          else extract(epoch from least(${sql(c.finishedAt)}, ${to}::timestamptz) - greatest(${sql(c.startedAt)}, ${from}::timestamptz))
            / extract(epoch from ${sql(c.finishedAt)} - ${sql(c.startedAt)})
        end as share
      from ${sql(runs)}
      where ${sql(c.startedAt)} <= ${to}::timestamptz
        and (${sql(c.finishedAt)} >= ${from}::timestamptz or ${sql(c.finishedAt)} is null and ${sql(c.status)} = 'running')
    ) r
    group by job order by job`;
}
