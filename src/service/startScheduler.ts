import cron, { type ScheduledTask } from 'node-cron';
import type { PredictionClient } from '../api/client/index.js';
import type { Sql } from '../db/connect.js';
import { acquireJobLock } from '../sql/jobLock.js';
import { abortOrphanedRuns } from '../sql/ingestRuns.js';
import { runJob, type JobResult } from '../sync/runJob.js';
import { cronLogger } from './cronLogger.js';
import { JOB_EXPECTS_RECORDS, jobWork, type JobName, type JobSettings } from './jobKinds.js';
import { pgRunCoordinator } from './pgRunCoordinator.js';

/** The few logger methods used here; a pino logger fits. */
export interface ServiceLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export type RunOutcome = JobResult | { job: JobName; status: 'failed'; error: unknown; durationMs: number };

export interface SchedulerOptions {
  sql: Sql;
  /** For the job locks, each held on a connection of its own. */
  databaseUrl: string;
  /** The client each job sends through: one queue, a priority per job. */
  clientFor: (job: JobName) => PredictionClient;
  jobs: readonly { name: JobName; schedule: string }[];
  providers: readonly string[];
  categories: readonly string[];
  settings: JobSettings;
  /** Names this process in job_ticks. */
  instanceId: string;
  logger: ServiceLogger;
  onRunFinished?: (outcome: RunOutcome) => void;
  now?: () => Date;
}

export interface Scheduler {
  /** Time between two ticks of a job, for readiness. */
  periodMs(job: JobName): number;
  /** Stops scheduling and asks running jobs to stop after the page in flight; resolves when they have. */
  stop(): Promise<void>;
}

/**
 * Schedules the jobs with node-cron (UTC). Each tick runs on exactly one instance (claimed in
 * prediction.job_ticks) and only if no instance is still running the same job (its advisory lock);
 * every write of a run is fenced by that lock, so an instance that lost it commits nothing more.
 */
export function startScheduler(options: SchedulerOptions): Scheduler {
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  const tasks = new Map<JobName, ScheduledTask>();

  const tick = async (job: JobName) => {
    if (stopping.signal.aborted) return;
    const lock = await acquireJobLock(options.databaseUrl, job, { wait: false });
    if (!lock) {
      options.logger.info({ job }, 'job is still running on another instance; tick skipped');
      return;
    }
    const startedMs = Date.now();
    try {
      await abortOrphanedRuns(options.sql, job, now());
      const deadline = tasks.get(job)?.getNextRun() ?? new Date(Date.now() + 60_000);
      const work = jobWork(job, options.settings);
      const result = await runJob(
        options.sql,
        options.clientFor(job),
        job,
        {
          providers: options.providers,
          categories: options.categories,
          maxRejectedPercent: options.settings.maxRejectedPercent,
          expectRecords: JOB_EXPECTS_RECORDS[job],
          signal: stopping.signal,
          fence: lock.fence,
          now,
        },
        (ctx) => work(ctx, deadline),
      );
      const fields = { job, runId: result.runId, status: result.status, durationMs: result.durationMs, ...result.totals };
      if (result.degradation === null) options.logger.info(fields, 'job finished');
      else options.logger.error({ ...fields, degradation: result.degradation }, `job degraded: ${result.degradation}`);
      options.onRunFinished?.(result);
    } catch (error) {
      // A stop cuts requests off mid-run by design: its run is recorded as aborted, not an error.
      if (stopping.signal.aborted) options.logger.info({ job, err: error }, 'job stopped by shutdown');
      else options.logger.error({ job, err: error }, 'job failed');
      options.onRunFinished?.({ job, status: 'failed', error, durationMs: Date.now() - startedMs });
    } finally {
      await lock.release();
    }
  };

  for (const { name, schedule } of options.jobs) {
    const task = cron.schedule(
      schedule,
      () => {
        const run = tick(name).catch((error: unknown) => options.logger.error({ job: name, err: error }, 'job tick failed'));
        running.add(run);
        return run.finally(() => running.delete(run));
      },
      {
        name,
        timezone: 'Etc/UTC',
        noOverlap: true,
        distributed: true,
        runCoordinator: pgRunCoordinator(options.sql, name, options.instanceId, now),
        logger: cronLogger(options.logger, name),
      },
    );
    tasks.set(name, task);
  }

  return {
    periodMs(job) {
      const [a, b] = tasks.get(job)?.getNextRuns(2) ?? [];
      return a && b ? b.getTime() - a.getTime() : 60_000;
    },
    async stop() {
      stopping.abort();
      await Promise.all([...tasks.values()].map((t) => t.stop()));
      await Promise.allSettled([...running]);
    },
  };
}
