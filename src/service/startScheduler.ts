import cron, { type ScheduledTask } from 'node-cron';

import type { PredictionClient } from '../api/client/index.js';
import type { Sql } from '../db/connect.js';
import { DEFAULT_LEASE_TTL_SEC, takeJobLease } from '../lease/takeJobLease.js';
import type { Logger } from '../log/Logger.js';
import type { JobName } from '../sync/jobCatalog.js';
import type { JobResult } from '../sync/runJob.js';
import { runLeasedJob } from '../sync/runLeasedJob.js';
import { TradedBooks } from '../sync/TradedBooks.js';
import { cronLogger } from './cronLogger.js';
import { JOB_EXPECTS_RECORDS, type JobSettings, jobWork } from './jobKinds.js';
import { pgRunCoordinator, type RunCoordinator } from './pgRunCoordinator.js';

export type RunOutcome = JobResult | { job: JobName; status: 'failed'; error: unknown; durationMs: number };

export interface SchedulerOptions {
  /** The pool every job works through; the job leases are taken and renewed through it too. */
  sql: Sql;
  /**
   * Lifetime of a job's lease, renewed every third of it while the job runs. An instance that
   * crashed keeps its jobs from running elsewhere this long. Default DEFAULT_LEASE_TTL_SEC (30 s).
   */
  leaseTtlMs?: number;
  /** The client each job sends through: one queue, a priority per job. */
  clientFor: (job: JobName) => PredictionClient;
  jobs: readonly { name: JobName; schedule: string }[];
  providers: readonly string[];
  categories: readonly string[];
  settings: JobSettings;
  /** Names this process in job_ticks. */
  instanceId: string;
  logger: Logger;
  onRunFinished?: (outcome: RunOutcome) => void;
  /**
   * Called whenever a job makes progress (the liveness signal of /healthz): a tick claimed by
   * another instance, a job found running elsewhere, each page or batch a run commits, a run's end.
   * A tick that cannot reach the database calls nothing. Default: nothing.
   */
  onProgress?: (job: JobName) => void;
  /** The jobs' clock, for a simulated world. Default: each run takes the database's, the host's checked against it (runJob). */
  now?: () => Date;
  /**
   * When each job last finished well (lastSuccessfulRuns). A job with none, or none within its
   * period, runs once at start instead of waiting for its first tick: with the default schedules a
   * new install waited up to 10 minutes for its first crawl, its sweeps finding nothing to fetch
   * meanwhile. Absent: every job waits for its first tick.
   */
  lastSuccess?: ReadonlyMap<string, Date>;
}

export interface Scheduler {
  /** Time between two ticks of a job, for readiness. */
  periodMs(job: JobName): number;
  /** Stops scheduling and asks running jobs to stop after the page in flight; resolves when they have. */
  stop(): Promise<void>;
}

/**
 * Schedules the jobs with node-cron (UTC). Each tick runs on exactly one instance (claimed in
 * prediction.job_ticks) and only if no instance is still running the same job (its lease in
 * prediction.job_leases); every write of a run is fenced by that lease, and a run whose lease is
 * lost stops: an instance that lost it commits nothing more.
 */
export function startScheduler(options: SchedulerOptions): Scheduler {
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  const tasks = new Map<JobName, ScheduledTask>();
  // Jobs this instance runs now: a tick may find its own run still going (one started at start, before the ticks).
  const runningHere = new Set<JobName>();
  // New trades, from the trade feed's runs to the sweeps of this instance.
  const traded = new TradedBooks();

  const leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_SEC * 1000;

  const tick = async (job: JobName) => {
    if (stopping.signal.aborted) return;
    const lease = await takeJobLease(options.sql, job, { holder: options.instanceId, ttlMs: leaseTtlMs });
    // Progress for liveness: the database answered and the job is in hand, here or elsewhere.
    options.onProgress?.(job);
    if (!lease) {
      const where = runningHere.has(job) ? 'this instance' : 'another instance';
      options.logger.info({ job }, `job is still running on ${where}; tick skipped`);
      return;
    }
    const startedMs = Date.now();
    runningHere.add(job);
    try {
      const deadline = tasks.get(job)?.getNextRun() ?? new Date(Date.now() + 60_000);
      const work = jobWork(job, options.settings, traded);
      const result = await runLeasedJob(
        options.sql,
        options.clientFor(job),
        lease,
        job,
        {
          providers: options.providers,
          categories: options.categories,
          maxRejectedPercent: options.settings.maxRejectedPercent,
          expectRecords: JOB_EXPECTS_RECORDS[job],
          signal: stopping.signal,
          // Absent: each run takes the database's clock, the host's checked against it (runJob).
          now: options.now,
          clockToleranceMs: options.settings.clockToleranceMs,
          // Called after each committed page or batch: a long first crawl is progress too.
          progress: () => options.onProgress?.(job),
        },
        (ctx) => work(ctx, deadline),
      );
      options.onProgress?.(job);
      const fields = { job, runId: result.runId, status: result.status, durationMs: result.durationMs, ...result.totals };
      if (lease.lost.aborted && !stopping.signal.aborted)
        options.logger.error({ ...fields, err: lease.lost.reason }, 'job stopped: it lost its lease');
      else if (result.degradation !== null)
        options.logger.error(
          { ...fields, degradation: result.degradation, notices: result.notices },
          `job degraded: ${result.degradation}`,
        );
      else if (result.notices.length > 0)
        options.logger.warn({ ...fields, notices: result.notices }, `job finished: ${result.notices.join('; ')}`);
      else options.logger.info(fields, 'job finished');
      options.onRunFinished?.(result);
    } catch (error) {
      // A stop cuts requests off mid-run by design: its run is recorded as aborted, not an error.
      if (stopping.signal.aborted) options.logger.info({ job, err: error }, 'job stopped by shutdown');
      else if (lease.lost.aborted) options.logger.error({ job, err: error, lease: lease.lost.reason }, 'job stopped: it lost its lease');
      else options.logger.error({ job, err: error }, 'job failed');
      options.onRunFinished?.({ job, status: 'failed', error, durationMs: Date.now() - startedMs });
    } finally {
      runningHere.delete(job);
    }
  };

  const launch = (job: JobName) => {
    const run = tick(job).catch((error: unknown) => options.logger.error({ job, err: error }, 'job tick failed'));
    running.add(run);
    return run.finally(() => running.delete(run));
  };

  for (const { name, schedule } of options.jobs) {
    const task = cron.schedule(schedule, () => launch(name), {
      name,
      timezone: 'Etc/UTC',
      noOverlap: true,
      distributed: true,
      runCoordinator: handedOver(pgRunCoordinator(options.sql, name, options.instanceId, now), () => options.onProgress?.(name)),
      logger: cronLogger(options.logger, name),
    });
    tasks.set(name, task);
  }

  const periodMs = (job: JobName) => {
    const [a, b] = tasks.get(job)?.getNextRuns(2) ?? [];
    return a && b ? b.getTime() - a.getTime() : 60_000;
  };
  // Not a tick: no instance claims it in job_ticks, but the job's lease still lets one run at a time.
  const lastSuccess = options.lastSuccess;
  if (lastSuccess !== undefined) {
    for (const { name } of options.jobs) {
      const last = lastSuccess.get(name);
      const sinceMs = last === undefined ? Infinity : now().getTime() - last.getTime();
      if (sinceMs <= periodMs(name)) continue;
      options.logger.info({ job: name, lastSuccess: last ?? null }, 'no run within its period: the job runs now, before its first tick');
      void launch(name);
    }
  }

  return {
    periodMs,
    async stop() {
      stopping.abort();
      await Promise.all([...tasks.values()].map((t) => t.stop()));
      await Promise.allSettled([...running]);
    },
  };
}

/** A coordinator that also reports a tick another instance claimed: the database answered, the job is in hand. */
function handedOver(coordinator: RunCoordinator, onHandedOver: () => void): RunCoordinator {
  return {
    async shouldRun(key, ttlMs) {
      const mine = await coordinator.shouldRun(key, ttlMs);
      if (!mine) onHandedOver();
      return mine;
    },
  };
}
