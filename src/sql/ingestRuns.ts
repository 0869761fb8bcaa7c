import type { Queryable } from './queryable.js';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'aborted';

export interface RunTotals {
  requests: number;
  requestsByStatus: Record<string, Record<string, number>>;
  recordsSeen: number;
  recordsWritten: number;
  recordsRejected: number;
  rowsByTable: Record<string, number>;
}

/** Opens an ingest_runs row, committed at once so a crashed run stays visible. */
export async function startRun(sql: Queryable, job: string, startedAt: Date): Promise<number> {
  const [row] = await sql<{ run_id: string }[]>`
    insert into prediction.ingest_runs (job, started_at, status) values (${job}, ${startedAt}::timestamptz, 'running')
    returning run_id`;
  return Number(row!.run_id);
}

export async function finishRun(
  sql: Queryable,
  runId: number,
  status: Exclude<RunStatus, 'running'>,
  totals: RunTotals,
  finishedAt: Date,
  error: string | null,
): Promise<void> {
  await sql`
    update prediction.ingest_runs set
      status = ${status}, finished_at = ${finishedAt}::timestamptz, error = ${error},
      requests = ${totals.requests}, requests_by_status = ${sql.json(totals.requestsByStatus)},
      records_seen = ${totals.recordsSeen}, records_written = ${totals.recordsWritten},
      records_rejected = ${totals.recordsRejected}, rows_by_table = ${sql.json(totals.rowsByTable)}
    where run_id = ${runId}`;
}

/**
 * Marks runs of `job` left 'running' by a process that died as 'aborted'. Call it while holding
 * the job's lock, so no live run can be among them.
 */
export async function abortOrphanedRuns(sql: Queryable, job: string, now: Date): Promise<number> {
  const result = await sql`
    update prediction.ingest_runs set status = 'aborted', finished_at = ${now}::timestamptz,
      error = coalesce(error, 'the process ended before the run finished')
    where job = ${job} and status = 'running'`;
  return result.count;
}

/** When each of these jobs last finished successfully (jobs that never did are absent). */
export async function lastSuccessfulRuns(sql: Queryable, jobs: readonly string[]): Promise<Map<string, Date>> {
  const rows = await sql<{ job: string; at: Date }[]>`
    select job, max(finished_at) as at from prediction.ingest_runs
    where job = any(${jobs as string[]}::text[]) and status = 'succeeded' group by job`;
  return new Map(rows.map((r) => [r.job, r.at]));
}
