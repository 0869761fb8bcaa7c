import type { PredictionClient } from '../api/client/index.js';
import { checkedClock } from '../db/checkedClock.js';
import type { Sql } from '../db/connect.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import type { JobLease } from '../lease/takeJobLease.js';
import { linkSignals } from '../signals/linkSignals.js';
import { abortOrphanedRuns } from '../sql/core/ingestRuns.js';
import { type JobOptions, type JobResult, runJob } from './runJob.js';
import type { SyncContext } from './SyncContext.js';

/**
 * The one way a job runs under its lease, for the scheduler and the sync command alike:
 * - runs of `job` left 'running' by a holder that died are closed as aborted first (while we hold
 *   the lease, no live run of it can be among them);
 * - the run stops on `options.signal` or as soon as the lease is lost (its writes would be refused
 *   anyway), and every write is fenced by the lease;
 * - the lease is released whatever happens.
 */
export async function runLeasedJob(
  sql: Sql,
  client: PredictionClient,
  lease: JobLease,
  job: string,
  options: Omit<JobOptions, 'fence'>,
  work: (ctx: SyncContext) => Promise<void>,
): Promise<JobResult> {
  const stop = linkSignals(options.signal ? [options.signal, lease.lost] : [lease.lost]);
  try {
    const now = options.now ?? (await checkedClock(sql, { toleranceMs: options.clockToleranceMs }));
    await withStatementDeadline(sql, 'closing orphaned runs', () => abortOrphanedRuns(sql, job, now()));
    return await runJob(sql, client, job, { ...options, signal: stop.signal, fence: lease.fence }, work);
  } finally {
    stop.dispose();
    await lease.release();
  }
}
