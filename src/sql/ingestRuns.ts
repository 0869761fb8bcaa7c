import { MAX_ERROR_CHAIN_CHARS } from '../errors/errorChainMessage.js';
import { sanitizeText } from '../errors/sanitizeText.js';
import type { Queryable } from './queryable.js';

/**
 * 'degraded': the run completed and stored what it accepted, but rejected more than its threshold
 * of what it read. Its data is stored, so it counts as a success for freshness (lastSuccessfulRuns).
 */
export type RunStatus = 'running' | 'succeeded' | 'degraded' | 'failed' | 'aborted';

/** Records of one endpoint label by outcome; `accepted` counts records stored without drift. */
export interface EndpointRecordCounts {
  accepted: number;
  acceptedWithDrift: number;
  rejected: number;
}

export interface RunTotals {
  requests: number;
  requestsByStatus: Record<string, Record<string, number>>;
  recordsSeen: number;
  recordsWritten: number;
  recordsRejected: number;
  rowsByTable: Record<string, number>;
  /** Per endpoint label, e.g. {"/events": {accepted: 40, acceptedWithDrift: 2, rejected: 1}}. */
  recordsByEndpoint: Record<string, EndpointRecordCounts>;
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
      status = ${status}, finished_at = ${finishedAt}::timestamptz,
      error = ${error === null ? null : sanitizeText(error, MAX_ERROR_CHAIN_CHARS)},
      requests = ${totals.requests}, requests_by_status = ${sql.json(totals.requestsByStatus)},
      records_seen = ${totals.recordsSeen}, records_written = ${totals.recordsWritten},
      records_rejected = ${totals.recordsRejected}, rows_by_table = ${sql.json(totals.rowsByTable)},
      records_by_endpoint = ${sql.json(recordsByEndpointJson(totals.recordsByEndpoint))}
    where run_id = ${runId}`;
}

/** The column's documented snake_case keys (COMMENT ON ingest_runs.records_by_endpoint). */
function recordsByEndpointJson(
  byEndpoint: RunTotals['recordsByEndpoint'],
): Record<string, { accepted: number; accepted_with_drift: number; rejected: number }> {
  // fromEntries: an endpoint label such as "__proto__" stays a plain key.
  return Object.fromEntries(
    Object.entries(byEndpoint).map(([endpoint, c]) => [
      endpoint,
      { accepted: c.accepted, accepted_with_drift: c.acceptedWithDrift, rejected: c.rejected },
    ]),
  );
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

/**
 * When each of these jobs last finished successfully (jobs that never did are absent). A degraded
 * run counts: it stored its data, only too much of what it read was rejected.
 */
export async function lastSuccessfulRuns(sql: Queryable, jobs: readonly string[]): Promise<Map<string, Date>> {
  const rows = await sql<{ job: string; at: Date }[]>`
    select job, max(finished_at) as at from prediction.ingest_runs
    where job = any(${jobs as string[]}::text[]) and status in ('succeeded', 'degraded') group by job`;
  return new Map(rows.map((r) => [r.job, r.at]));
}

export interface LatestRunStatus {
  status: Exclude<RunStatus, 'running'>;
  finishedAt: Date;
  error: string | null;
}

/**
 * The latest finished run of each of these jobs (jobs with none are absent), for readiness: a job
 * whose latest run failed or degraded is worth reporting even while an older success is fresh.
 */
export async function latestRunStatuses(sql: Queryable, jobs: readonly string[]): Promise<Map<string, LatestRunStatus>> {
  // Runs of a job are serialized by its lock, so the latest started of the finished runs is the
  // latest finished: a backward probe of (job, started_at) per job, not a scan of its history.
  const rows = await sql<{ job: string; status: LatestRunStatus['status']; finished_at: Date; error: string | null }[]>`
    select j.job, r.status, r.finished_at, r.error
    from unnest(${jobs as string[]}::text[]) as j(job)
    cross join lateral (
      select status, finished_at, error from prediction.ingest_runs
      where job = j.job and finished_at is not null
      order by started_at desc, run_id desc
      limit 1
    ) r`;
  return new Map(rows.map((r) => [r.job, { status: r.status, finishedAt: r.finished_at, error: r.error }]));
}
