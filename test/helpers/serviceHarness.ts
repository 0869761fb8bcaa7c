import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import type { Sql } from '../../src/db/connect.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { createLogger } from '../../src/log/createLogger.js';
import type { Logger } from '../../src/log/Logger.js';
import { createMetrics, type Metrics } from '../../src/ops/metrics.js';
import { type Service, startService } from '../../src/service/startService.js';
import type { Simulator } from '../../src/simulator/index.js';
import type { JobName } from '../../src/sync/jobCatalog.js';
import { API_KEY } from './syncHarness.js';

export const EVERY_SECOND = '* * * * * *';
/** A schedule that does not fire during a test: the trades job's default here (tradesJob.test.ts ticks it). */
export const NEVER = '0 0 1 1 *';

export interface TestServiceOptions {
  rateLimit?: { requests: number; windowMs: number };
  schedules?: Partial<Record<JobName, string>>;
  /** Categories the crawl pages. Default: the documented ones (pass `['all']` to crawl unfiltered, as the service's default). */
  categories?: readonly string[];
  /** The service's logger. Default: silent (see `captureLogger` to read what it writes). */
  logger?: Logger;
  /** A run rejecting more than this share is degraded. Default 5, as the service's default. */
  maxRejectedPercent?: number;
  /** ServiceOptions.runOverdueAtStart. Default false: the tests count ticks from the first. */
  runOverdueAtStart?: boolean;
}

/** A service instance in this process against the simulator, every job but the trades job ticking each second. */
export async function startTestService(
  sim: Simulator,
  databaseUrl: string,
  options: TestServiceOptions = {},
): Promise<{ service: Service; client: PredictionClient; metrics: Metrics }> {
  const client = createPredictionClient({
    baseUrl: sim.url,
    apiKey: API_KEY,
    rateLimit: options.rateLimit ?? { requests: 1_000_000, windowMs: 60_000 },
    backoff: { baseMs: 5, capMs: 50 },
  });
  const metrics = createMetrics({ processMetrics: false });
  const service = await startService({
    databaseUrl,
    client,
    metrics,
    logger: options.logger ?? createLogger({ level: 'silent' }),
    schedules: { crawl: EVERY_SECOND, trades: NEVER, details: EVERY_SECOND, orderbooks: EVERY_SECOND, ...options.schedules },
    providers: KNOWN_PROVIDERS,
    categories: options.categories ?? CONCRETE_CATEGORIES,
    maxRejectedPercent: options.maxRejectedPercent ?? 5,
    orderBookMaxAgeSec: 3600,
    ops: { host: '127.0.0.1', port: 0 },
    // The tests' clock, faked (installCronClock) or not: observations follow it, as the simulator does.
    now: () => new Date(),
    runOverdueAtStart: options.runOverdueAtStart ?? false,
  });
  return { service, client, metrics };
}

/** One JSON line the service's logger wrote, parsed. */
export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** The service's own pino logger (createLogger: JSON lines, levels as names), writing into `lines` instead of stdout. */
export function captureLogger(level = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine);
    },
  };
  return { logger: createLogger({ level, destination }), lines };
}

/** Runs of each job, as [start, end) intervals in ms. */
export async function runIntervals(sql: Sql) {
  const runs = await sql<{ job: string; started_at: Date; finished_at: Date | null; status: string }[]>`
    select job, started_at, finished_at, status from prediction.ingest_runs order by job, started_at`;
  return runs;
}
