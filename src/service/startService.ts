import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import type { PredictionClient } from '../api/client/index.js';
import { connect, type Database } from '../db/connect.js';
import { withStatementDeadline } from '../db/withStatementDeadline.js';
import { DEFAULT_LEASE_TTL_SEC } from '../lease/takeJobLease.js';
import type { Logger } from '../log/Logger.js';
import { createLiveness, type Liveness } from '../ops/liveness.js';
import type { Metrics } from '../ops/metrics.js';
import { createReadiness } from '../ops/readiness.js';
import { type OpsServer, startOpsServer } from '../ops/startOpsServer.js';
import { connectPacker } from '../partitions/connectPacker.js';
import { recordServiceSettings } from '../sql/coordination/serviceSettings.js';
import { lastSuccessfulRuns, latestRunStatuses } from '../sql/core/ingestRuns.js';
import { JOB_NAMES, type JobName } from '../sync/jobCatalog.js';
import { type RunOutcome, type Scheduler, startScheduler } from './startScheduler.js';

export interface ServiceOptions {
  databaseUrl: string;
  client: PredictionClient;
  /** The client view each job sends through (one queue, a priority per job). Default: `client` for all. */
  clientFor?: (job: JobName) => PredictionClient;
  metrics: Metrics;
  logger: Logger;
  schedules: Record<JobName, string>;
  providers: readonly string[];
  categories: readonly string[];
  /** A run rejecting more than this share of what it reads is degraded. */
  maxRejectedPercent: number;
  orderBookMaxAgeSec: number;
  /** The plan's rate (PREDICTION_RATE_LIMIT_RPM), for the sweep's schedule (JobSettings.rateLimitRpm). Absent: each book once a sweep. */
  rateLimitRpm?: number;
  /** ORDERBOOK_HOT_EVENTS (JobSettings.hotEvents). Absent: none. */
  hotEvents?: number;
  /** Months of history kept (PREDICTION_RETENTION_MONTHS); null or absent (the default) keeps everything. */
  retentionMonths?: number | null;
  ops: { host: string; port: number };
  /**
   * Lifetime of a job's lease (PREDICTION_LEASE_TTL_SEC), renewed every third of it: after a crash,
   * another instance takes the jobs over within this. Default DEFAULT_LEASE_TTL_SEC (30).
   */
  leaseTtlSec?: number;
  /** The jobs' clock, for a simulated world (SchedulerOptions.now). Default: the database's, checked (runJob). */
  now?: () => Date;
  /** Days of runs kept (PREDICTION_RUN_RETENTION_DAYS); null or absent keeps every run. */
  runRetentionDays?: number | null;
  /** PREDICTION_CLOCK_TOLERANCE_SEC in ms (JobOptions.clockToleranceMs). Default 5 000. */
  clockToleranceMs?: number;
  /** The writers' statement_timeout (PREDICTION_DB_STATEMENT_TIMEOUT_SEC); their lock timeout and deadlines follow. Default 20 000. */
  statementTimeoutMs?: number;
  /**
   * A job that has not finished well within its period (or never has) runs once at start, before
   * its first tick (SchedulerOptions.lastSuccess). Default false: every job waits for its first
   * tick, as the tests that count ticks expect; `serve` sets it.
   */
  runOverdueAtStart?: boolean;
}

export interface Service {
  readonly instanceId: string;
  readonly opsUrl: string;
  /**
   * Graceful stop: no new tick, no request sent any more (queued ones rejected, those in flight
   * aborted), running jobs end after their page commits or rolls back, leases released, pools closed.
   */
  stop(): Promise<void>;
}

/** Starts the scheduled jobs and the ops server over an already migrated database. */
export async function startService(options: ServiceOptions): Promise<Service> {
  const instanceId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const database: Database = connect(options.databaseUrl, { max: 6, statementTimeoutMs: options.statementTimeoutMs });
  // A pool of its own: a readiness probe must not queue behind long write transactions.
  const probe = connect(options.databaseUrl, { max: 1, role: 'probe', applicationName: 'prediction-ingest readiness' });
  // The crawl packs closed months through it (long statements); it connects only when it does.
  const packer = connectPacker(options.databaseUrl);

  let scheduler: Scheduler | undefined;
  let ops: OpsServer | undefined;
  // Created once the scheduler knows each job's period; the first tick comes later than that.
  let liveness: Liveness | undefined;
  try {
    // Inside the try: a failure here must close the pools too, or their sockets keep the process alive.
    const lastRuns = await withStatementDeadline(database.sql, 'reading the last runs', () => lastSuccessfulRuns(database.sql, JOB_NAMES));
    for (const [job, at] of lastRuns) options.metrics.markJobSuccess(job, at.getTime());
    // For `plan`, which replays the schedules the service runs with rather than its own process's.
    await withStatementDeadline(database.sql, 'storing the service settings', () =>
      recordServiceSettings(database.sql, {
        instanceId,
        schedules: options.schedules,
        orderBookMaxAgeSec: options.orderBookMaxAgeSec,
        rateLimitRpm: options.rateLimitRpm ?? null,
      }),
    );
    scheduler = startScheduler({
      sql: database.sql,
      leaseTtlMs: (options.leaseTtlSec ?? DEFAULT_LEASE_TTL_SEC) * 1000,
      clientFor: options.clientFor ?? (() => options.client),
      jobs: JOB_NAMES.map((name) => ({ name, schedule: options.schedules[name] })),
      providers: options.providers,
      categories: options.categories,
      settings: {
        orderBookMaxAgeSec: options.orderBookMaxAgeSec,
        maxRejectedPercent: options.maxRejectedPercent,
        retentionMonths: options.retentionMonths ?? null,
        clockToleranceMs: options.clockToleranceMs,
        runRetentionDays: options.runRetentionDays ?? null,
        packer: packer.sql,
        rateLimitRpm: options.rateLimitRpm,
        hotEvents: options.hotEvents,
      },
      instanceId,
      now: options.now,
      lastSuccess: options.runOverdueAtStart === true ? lastRuns : undefined,
      logger: options.logger,
      onRunFinished: (outcome) => record(options.metrics, outcome),
      onProgress: (job) => liveness?.markProgress(job),
    });
    const periods = JOB_NAMES.map((name) => ({ name, expectedPeriodMs: scheduler!.periodMs(name) }));
    liveness = createLiveness({ jobs: periods });
    const readiness = createReadiness({
      sql: probe.sql,
      jobs: periods,
      // From the database, not this process's memory: a hot standby runs no job itself, yet the data is fresh.
      lastSuccess: async (job) => (await lastSuccessfulRuns(probe.sql, [job])).get(job)?.getTime() ?? null,
      lastOutcome: async (job) => (await latestRunStatuses(probe.sql, [job])).get(job) ?? null,
    });
    ops = await startOpsServer({ ...options.ops, metrics: options.metrics, readiness, liveness, logger: options.logger });
  } catch (error) {
    await scheduler?.stop();
    await Promise.all([database.close(), probe.close(), packer.close()]);
    throw error;
  }
  options.logger.info({ instanceId, ops: ops.url, schedules: options.schedules }, 'service started');

  let stopped: Promise<void> | undefined;
  return {
    instanceId,
    opsUrl: ops.url,
    stop: () =>
      (stopped ??= (async () => {
        // Running jobs are told first, so that they end as 'aborted' with what they fetched committed;
        // then the client drops whatever is still queued, waiting or in flight.
        const jobsStopped = scheduler!.stop();
        await options.client.abort();
        await jobsStopped;
        await ops!.close();
        await Promise.all([database.close(), probe.close(), packer.close()]);
        options.logger.info({ instanceId }, 'service stopped');
      })()),
  };
}

function record(metrics: Metrics, outcome: RunOutcome): void {
  metrics.recordJobRun(outcome.job, outcome.status, outcome.durationMs);
  if (outcome.status === 'failed') return;
  for (const [table, rows] of Object.entries(outcome.totals.rowsByTable)) metrics.recordRows(table, rows);
  // A degraded run stored what it could read: the data is as fresh as its run.
  if (outcome.status !== 'aborted') metrics.markJobSuccess(outcome.job, outcome.startedAt.getTime() + outcome.durationMs);
}
