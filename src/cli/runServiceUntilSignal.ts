import type { PredictionClientOptions } from '../api/client/index.js';
import { createClientFromConfig } from '../app/createClientFromConfig.js';
import { prepareDatabase } from '../app/prepareDatabase.js';
import type { Config } from '../config.js';
import { configSecrets } from '../configSecrets.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { createLogger, logFormatFor } from '../log/createLogger.js';
import { createMetrics } from '../ops/metrics.js';
import { OpsServerError } from '../ops/startOpsServer.js';
import { startService } from '../service/startService.js';
import { JOB_PRIORITY } from '../sync/jobCatalog.js';
import { CliError } from './cliError.js';
import { ExitCode } from './exitCodes.js';
import { onShutdownSignal } from './onShutdownSignal.js';
import { announceStart } from './resolveDatabaseForCommand.js';

/** Longest a graceful shutdown may take before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 25_000;

export interface RunServiceOptions {
  /** Identifies the upstream in prediction.upstream_sources. Default: the API URL. */
  upstreamId?: string;
  allowUpstreamChange: boolean;
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

  const metrics = createMetrics({ queueDepth: () => client.stats().queue, rateWindows: () => client.stats() });
  const client = createClientFromConfig(config, { onRequest: metrics.observeRequest, logger, ...options.client });
  const target = await resolveDatabase(config, { onStarting: announceStart });
  try {
    await prepareDatabase(target.url, { id: options.upstreamId ?? config.apiUrl, allowChange: options.allowUpstreamChange });
    const service = await startService({
      databaseUrl: target.url,
      client,
      clientFor: (job) => client.withPriority(JOB_PRIORITY[job]),
      metrics,
      logger,
      schedules: {
        crawl: config.crawlSchedule,
        trades: config.tradesSchedule,
        details: config.detailsSchedule,
        orderbooks: config.orderBookSchedule,
      },
      providers: config.providers,
      categories: config.categories,
      maxRejectedPercent: config.maxRejectedPercent,
      orderBookMaxAgeSec: config.orderBookMaxAgeSec,
      rateLimitRpm: config.rateLimitRpm,
      hotEvents: config.hotEvents,
      retentionMonths: config.retentionMonths,
      leaseTtlSec: config.leaseTtlSec,
      clockToleranceMs: config.clockToleranceSec * 1000,
      runRetentionDays: config.runRetentionDays,
      statementTimeoutMs: config.databaseStatementTimeoutSec * 1000,
      runOverdueAtStart: true,
      ops: { host: config.opsHost, port: config.opsPort },
    });
    options.onStarted?.({ databaseUrl: target.url, embedded: target.embedded, opsUrl: service.opsUrl });
    await signal;
    await service.stop();
    return ExitCode.ok;
  } catch (error) {
    throw opsPortError(error, config) ?? error;
  } finally {
    removeSignals();
    await client.abort();
    await target.release();
  }
}

/**
 * A port taken by another process, or one this user may not bind, is this machine's configuration:
 * exit 2, naming OPS_PORT and the port, rather than the listener's own message (exit 1).
 */
function opsPortError(error: unknown, config: Readonly<Config>): CliError | undefined {
  if (!(error instanceof OpsServerError)) return undefined;
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  const problem =
    code === 'EADDRINUSE'
      ? 'is already in use: stop what listens there, or set OPS_PORT to a free port (0 picks one)'
      : code === 'EACCES'
        ? 'may not be bound by this user (ports below 1024 need privileges): set OPS_PORT to another port'
        : undefined;
  if (problem === undefined) return undefined;
  return new CliError(`OPS_PORT ${config.opsPort} (on OPS_HOST ${config.opsHost}) ${problem}`, ExitCode.usage, { cause: error });
}
