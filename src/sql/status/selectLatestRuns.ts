import { ingestRuns } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const { table: runs, col: c } = sqlNames(ingestRuns);
const RUN = selection(ingestRuns, [
  'runId',
  'status',
  'startedAt',
  'finishedAt',
  'requests',
  'recordsSeen',
  'recordsWritten',
  'recordsRejected',
  'rowsByTable',
  'error',
]);

/** A run as stored; `rowsByTable` is the jsonb object of rows inserted per table. */
export type RunRow = RowOf<typeof RUN>;

export interface LatestRuns {
  /** The run started last: it may still be running. */
  latest: RunRow;
  /** The run finished last (the same as `latest` once that has finished); null while the first run of the job is running. */
  latestFinished: RunRow | null;
}

/** For each of these jobs, its latest run and its latest finished run; jobs that never ran are absent. */
export async function selectLatestRuns(sql: Queryable, jobs: readonly string[]): Promise<Map<string, LatestRuns>> {
  // Runs of a job are serialized by its lease, so the latest started of the finished runs is the
  // latest finished: two backward probes of (job, started_at) per job, not a scan of its history.
  const rows = await sql<({ job: string; which: 'latest' | 'finished' } & RunRow)[]>`
    select j.job, 'latest' as which, r.*
    from unnest(${jobs as string[]}::text[]) as j(job)
    cross join lateral (
      select ${sql.unsafe(RUN.text)} from ${sql(runs)}
      where ${sql(c.job)} = j.job order by ${sql(c.startedAt)} desc, ${sql(c.runId)} desc limit 1
    ) r
    union all
    select j.job, 'finished' as which, r.*
    from unnest(${jobs as string[]}::text[]) as j(job)
    cross join lateral (
      select ${sql.unsafe(RUN.text)} from ${sql(runs)}
      where ${sql(c.job)} = j.job and ${sql(c.finishedAt)} is not null
      order by ${sql(c.startedAt)} desc, ${sql(c.runId)} desc limit 1
    ) r`;
  const byJob = new Map<string, LatestRuns>();
  for (const { job, which, ...run } of rows) {
    // A job with a finished run has a latest run too, in whichever order the two arrive.
    const entry = byJob.get(job) ?? { latest: run, latestFinished: null };
    if (which === 'latest') entry.latest = run;
    else entry.latestFinished = run;
    byJob.set(job, entry);
  }
  return byJob;
}
