import type { PredictionClient } from '../api/client/index.js';
import { checkedClock, DEFAULT_CLOCK_TOLERANCE_MS } from '../db/checkedClock.js';
import type { Sql } from '../db/connect.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import { writeTransaction } from '../db/writeTransaction.js';
import { errorChainMessage } from '../errors/errorChainMessage.js';
import { LeaseLostError } from '../lease/LeaseLostError.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { finishRun, type RunTotals, type ServerRateLimit, startRun } from '../sql/core/ingestRuns.js';
import { hasFutureRuns, repairFutureStamps } from '../sql/writes/repairFutureStamps.js';
import { assessIntake } from './assessIntake.js';
import { DEFAULT_BATCH_SIZE } from './defaultBatchSize.js';
import type { SyncContext } from './SyncContext.js';
import { SyncTotals } from './syncTotals.js';

// Also here for its callers: defaultBatchSize.ts holds it, apart from the work.
export { DEFAULT_BATCH_SIZE };

export interface JobOptions {
  providers: readonly string[];
  categories: readonly string[];
  /** Items fetched per write transaction in the detail and order-book phases. Default DEFAULT_BATCH_SIZE. */
  batchSize?: number;
  /** Aborting stops the job after the page or batch in flight commits or rolls back. */
  signal?: AbortSignal | undefined;
  /** Checked in every write transaction (see WriteFence). */
  fence?: WriteFence | undefined;
  /** A run rejecting more than this share of what it reads is recorded as degraded. Default 5. */
  maxRejectedPercent?: number;
  /** A run that receives no record at all is degraded too (true for jobs that crawl a listing). Default false. */
  expectRecords?: boolean;
  /**
   * Observation clock, for a simulated world. Default: the database's clock, read when the run
   * starts and carried on by the host's monotonic clock, after the host's wall clock was checked
   * against it (checkedClock: a ClockSkewError, and nothing written, past `clockToleranceMs`).
   */
  now?: () => Date;
  /** PREDICTION_CLOCK_TOLERANCE_SEC in ms: the host's clock farther from the database's fails the run. Default 5 000. */
  clockToleranceMs?: number;
  progress?: (message: string) => void;
}

export interface JobResult {
  job: string;
  runId: number;
  status: 'succeeded' | 'degraded' | 'aborted';
  /** Why the run is degraded (its rejected share and most common reasons); null otherwise. */
  degradation: string | null;
  totals: RunTotals;
  notFound: number;
  /** What the operator should hear of though the run went through (SyncTotals.notices). */
  notices: readonly string[];
  startedAt: Date;
  durationMs: number;
}

/**
 * Runs `work` as one recorded execution of `job`: an ingest_runs row opened first (committed at
 * once, so a crash stays visible) and closed with the counts, as failed when `work` throws.
 */
export async function runJob(
  sql: Sql,
  client: PredictionClient,
  job: string,
  options: JobOptions,
  work: (ctx: SyncContext) => Promise<void>,
): Promise<JobResult> {
  const now = options.now ?? (await checkedClock(sql, { toleranceMs: options.clockToleranceMs }));
  // Rows a skewed clock stamped ahead would hide every later observation: moved back first.
  const repaired = options.now === undefined ? await repairFutureRows(sql, options) : 0;
  const startedAt = now();
  // Opening and closing the run are single statements: over a hung connection they are abandoned
  // too, so a run's end cannot hang its process (the next run relabels a run left 'running').
  const runId = await withStatementDeadline(sql, 'opening the run', () => startRun(sql, job, startedAt));
  const totals = new SyncTotals();
  if (repaired > 0) totals.notice(`moved ${repaired} rows stamped in the future (by a clock ahead of the database's) back to now`);
  const ctx: SyncContext = {
    sql,
    // Jobs share the client (one queue): this view counts this run's own requests, and drops them
    // (queued, waiting for the rate limit or a retry, or in flight) as soon as the run is stopped.
    client: client.withSignal(options.signal).observedBy(totals.recordRequest),
    runId,
    providers: options.providers,
    categories: options.categories,
    now,
    totals,
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    signal: options.signal,
    fence: options.fence,
    progress: options.progress ?? (() => {}),
  };
  try {
    await work(ctx);
  } catch (error) {
    const status = options.signal?.aborted ? 'aborted' : 'failed';
    await withStatementDeadline(sql, 'closing the run', () =>
      finishRun(
        sql,
        runId,
        status,
        { ...totals.toRunTotals(), serverRateLimit: serverRateLimitOf(client) },
        now(),
        errorChainMessage(error),
      ),
    ).catch(() => {});
    throw error;
  }
  const aborted = options.signal?.aborted ?? false;
  // An aborted run read only part of its upstream: too little to judge, and recorded as aborted anyway.
  const degradation = aborted
    ? null
    : assessIntake(totals.intake(), { maxRejectedPercent: options.maxRejectedPercent ?? 5, expectRecords: options.expectRecords ?? false });
  const status = aborted ? 'aborted' : degradation !== null ? 'degraded' : 'succeeded';
  const finishedAt = now();
  const runTotals = { ...totals.toRunTotals(), serverRateLimit: serverRateLimitOf(client) };
  await withStatementDeadline(sql, 'closing the run', () =>
    finishRun(sql, runId, status, runTotals, finishedAt, aborted ? abortText(options.signal?.reason) : degradation),
  );
  return {
    job,
    runId,
    status,
    degradation,
    totals: runTotals,
    notFound: totals.notFound,
    notices: totals.notices,
    startedAt,
    durationMs: finishedAt.getTime() - startedAt.getTime(),
  };
}

/** Finds the runs stamped after the database's clock and, if any, moves every such row back (repairFutureStamps). */
async function repairFutureRows(sql: Sql, options: JobOptions): Promise<number> {
  const toleranceMs = options.clockToleranceMs ?? DEFAULT_CLOCK_TOLERANCE_MS;
  const found = await withStatementDeadline(sql, 'looking for runs stamped in the future', () => hasFutureRuns(sql, toleranceMs));
  return found ? writeTransaction(sql, options.fence, (tx) => repairFutureStamps(tx, toleranceMs)) : 0;
}

/** Why an aborted run stopped, as recorded in ingest_runs.error: a lost lease says so; a shutdown is "stopped by a signal". */
function abortText(reason: unknown): string {
  return reason instanceof LeaseLostError ? errorChainMessage(reason) : 'stopped by a signal';
}

/** The gateway's window as the client last saw it (x-ratelimit-* headers), for `status`; null when no answer carried them. */
function serverRateLimitOf(client: PredictionClient): ServerRateLimit | null {
  const window = client.stats().serverWindow;
  if (!window) return null;
  return {
    requests: window.requests,
    windowSeconds: window.windowSec,
    requestsPerMinute: window.requestsPerMinute,
    observedAt: new Date(window.observedAtMs),
  };
}
