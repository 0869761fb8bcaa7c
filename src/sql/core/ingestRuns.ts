import { MAX_ERROR_CHAIN_CHARS } from '../../errors/errorChainMessage.js';
import { sanitizeText } from '../../errors/sanitizeText.js';
import { ingestRuns } from '../../schema/index.js';
import type { Queryable } from './queryable.js';
import { type RowOf, selection, sqlNames } from './sqlNames.js';

const { table: runs, col: c } = sqlNames(ingestRuns);
const RUN_ID = selection(ingestRuns, ['runId']);
const OUTCOME = selection(ingestRuns, ['status', 'finishedAt', 'error']);

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

/** The gateway's window as the run's answers reported it (ingest_runs.server_rate_limit). */
export interface ServerRateLimit {
  requests: number;
  /** Null while no answer opened a window the client saw. */
  windowSeconds: number | null;
  requestsPerMinute: number | null;
  observedAt: Date;
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
  /** The gateway's window, when the run's answers carried its headers. */
  serverRateLimit?: ServerRateLimit | null;
}

/** Opens an ingest_runs row, committed at once so a crashed run stays visible. */
export async function startRun(sql: Queryable, job: string, startedAt: Date): Promise<number> {
  const [row] = await sql<RowOf<typeof RUN_ID>[]>`
    insert into ${sql(runs)} (${sql(c.job)}, ${sql(c.startedAt)}, ${sql(c.status)}) values (${job}, ${startedAt}::timestamptz, 'running')
    returning ${sql.unsafe(RUN_ID.text)}`;
  return Number(row!.runId);
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
    update ${sql(runs)} set
      ${sql(c.status)} = ${status}, ${sql(c.finishedAt)} = ${finishedAt}::timestamptz,
      ${sql(c.error)} = ${error === null ? null : sanitizeText(error, MAX_ERROR_CHAIN_CHARS)},
      ${sql(c.requests)} = ${totals.requests}, ${sql(c.requestsByStatus)} = ${sql.json(totals.requestsByStatus)},
      ${sql(c.recordsSeen)} = ${totals.recordsSeen}, ${sql(c.recordsWritten)} = ${totals.recordsWritten},
      ${sql(c.recordsRejected)} = ${totals.recordsRejected}, ${sql(c.rowsByTable)} = ${sql.json(totals.rowsByTable)},
      ${sql(c.recordsByEndpoint)} = ${sql.json(recordsByEndpointJson(totals.recordsByEndpoint))},
      ${sql(c.serverRateLimit)} = ${totals.serverRateLimit ? sql.json(serverRateLimitJson(totals.serverRateLimit)) : null}
    where ${sql(c.runId)} = ${runId}`;
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
    update ${sql(runs)} set ${sql(c.status)} = 'aborted', ${sql(c.finishedAt)} = ${now}::timestamptz,
      ${sql(c.error)} = coalesce(${sql(c.error)}, 'the process ended before the run finished')
    where ${sql(c.job)} = ${job} and ${sql(c.status)} = 'running'`;
  return result.count;
}

/**
 * When each of these jobs last finished successfully (jobs that never did are absent). A degraded
 * run counts: it stored its data, only too much of what it read was rejected.
 */
export async function lastSuccessfulRuns(sql: Queryable, jobs: readonly string[]): Promise<Map<string, Date>> {
  // One backward probe of ingest_runs_job_success_idx (0017_run_pruning_and_bounds.sql) per job, not a scan of its history.
  const rows = await sql<{ job: string; at: Date }[]>`
    select j.job, r.at
    from unnest(${jobs as string[]}::text[]) as j(job)
    cross join lateral (
      select ${sql(c.finishedAt)} as at from ${sql(runs)}
      where ${sql(c.job)} = j.job and ${sql(c.status)} in ('succeeded', 'degraded') and ${sql(c.finishedAt)} is not null
      order by ${sql(c.finishedAt)} desc
      limit 1
    ) r`;
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
  const rows = await sql<({ job: string } & RowOf<typeof OUTCOME>)[]>`
    select j.job, r.*
    from unnest(${jobs as string[]}::text[]) as j(job)
    cross join lateral (
      select ${sql.unsafe(OUTCOME.text)} from ${sql(runs)}
      where ${sql(c.job)} = j.job and ${sql(c.finishedAt)} is not null
      order by ${sql(c.startedAt)} desc, ${sql(c.runId)} desc
      limit 1
    ) r`;
  // The status column's check constraint allows only RunStatus values, and 'running' has no finished_at.
  return new Map(rows.map((r) => [r.job, { status: r.status as LatestRunStatus['status'], finishedAt: r.finishedAt!, error: r.error }]));
}

/** The column's documented snake_case keys (COMMENT ON ingest_runs.server_rate_limit). */
function serverRateLimitJson(limit: ServerRateLimit): Record<string, number | string | null> {
  return {
    requests: limit.requests,
    window_seconds: limit.windowSeconds,
    requests_per_minute: limit.requestsPerMinute,
    observed_at: limit.observedAt.toISOString(),
  };
}
