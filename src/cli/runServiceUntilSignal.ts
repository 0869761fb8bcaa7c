import type { PredictionClientOptions } from '../api/client/index.js';
import { createClientFromConfig } from '../app/createClientFromConfig.js';
import { prepareDatabase } from '../app/prepareDatabase.js';
import type { Config } from '../config.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { configSecrets } from '../ops/configSecrets.js';
import { createLogger, logFormatFor } from '../log/createLogger.js';
import { createMetrics } from '../ops/metrics.js';
import { JOB_PRIORITY } from '../service/jobKinds.js';
import { startService } from '../service/startService.js';
import { ExitCode } from './exitCodes.js';
import { onShutdownSignal } from './onShutdownSignal.js';

/** Longest a graceful shutdown may take before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 25_000;

export interface RunServiceOptions {
  /** Identifies the upstream in prediction.upstream_sources. Default: the API URL. */
  upstreamId?: string;
  allowUpstreamChange: boolean;
  /** Database of the embedded Postgres (without DATABASE_URL). Default: "prediction". */
  embeddedDatabase?: string;
  /** Called once the service runs, with the database URL (e.g. to print how to query it). */
  onStarted?: (info: { databaseUrl: string; embedded: boolean; opsUrl: string }) => void;
  client?: Partial<PredictionClientOptions>;
}

/**
 * Runs the service until SIGINT/SIGTERM, then stops gracefully within SHUTDOWN_DEADLINE_MS (a
 * second signal exits at once). Resolves with the exit code.
 */
export async function runServiceUntilSignal(config: Readonly<Config>, options: RunServiceOptions): Promise<ExitCode> {
  const logger = createLogger({
    level: config.logLevel,
    name: 'prediction-ingest',
    secrets: configSecrets(config),
    format: logFormatFor(config.logFormat, process.stdout.isTTY === true),
  });
  let signalled: () => void = () => {};
  const signal = new Promise<void>((resolve) => (signalled = resolve));
  const removeSignals = onShutdownSignal((name) => {
    logger.info({ signal: name }, 'stopping: no new request; running jobs finish their page');
    setTimeout(() => {
      logger.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'graceful shutdown took too long; exiting');
      process.exit(ExitCode.failure);
    }, SHUTDOWN_DEADLINE_MS).unref();
    signalled();
  });

  const metrics = createMetrics({ queueDepth: () => client.stats().queue });
  const client = createClientFromConfig(config, { onRequest: metrics.observeRequest, logger, ...options.client });
  const target = await resolveDatabase(config, { embeddedDatabase: options.embeddedDatabase });
  try {
    await prepareDatabase(target.url, { id: options.upstreamId ?? config.apiUrl, allowChange: options.allowUpstreamChange });
    const service = await startService({
      databaseUrl: target.url,
      client,
      clientFor: (job) => client.withPriority(JOB_PRIORITY[job]),
      metrics,
      logger,
      schedules: { crawl: config.crawlSchedule, details: config.detailsSchedule, orderbooks: config.orderBookSchedule },
      providers: config.providers,
      categories: config.categories,
      maxRejectedPercent: config.maxRejectedPercent,
      orderBookMaxAgeSec: config.orderBookMaxAgeSec,
      retentionMonths: config.retentionMonths,
      leaseTtlSec: config.leaseTtlSec,
      statementTimeoutMs: config.databaseStatementTimeoutSec * 1000,
      ops: { host: config.opsHost, port: config.opsPort },
    });
    options.onStarted?.({ databaseUrl: target.url, embedded: target.embedded, opsUrl: service.opsUrl });
    await signal;
    await service.stop();
    return ExitCode.ok;
  } finally {
    removeSignals();
    await client.abort();
    await target.release();
  }
}
