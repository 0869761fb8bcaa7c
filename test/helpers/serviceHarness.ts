import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { createLogger } from '../../src/ops/createLogger.js';
import { createMetrics } from '../../src/ops/metrics.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startService, type Service } from '../../src/service/startService.js';
import { API_KEY } from './syncHarness.js';

export const EVERY_SECOND = '* * * * * *';

/** A service instance in this process against the simulator, every job ticking each second. */
export async function startTestService(
  sim: Simulator,
  databaseUrl: string,
  options: { rateLimit?: { requests: number; windowMs: number }; schedules?: Partial<Record<'crawl' | 'details' | 'orderbooks', string>> } = {},
): Promise<{ service: Service; client: PredictionClient }> {
  const client = createPredictionClient({
    baseUrl: sim.url,
    apiKey: API_KEY,
    rateLimit: options.rateLimit ?? { requests: 1_000_000, windowMs: 60_000 },
    backoff: { baseMs: 5, capMs: 50 },
  });
  const service = await startService({
    databaseUrl,
    client,
    metrics: createMetrics({ processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    schedules: { crawl: EVERY_SECOND, details: EVERY_SECOND, orderbooks: EVERY_SECOND, ...options.schedules },
    providers: KNOWN_PROVIDERS,
    categories: CONCRETE_CATEGORIES,
    maxRejectedPercent: 5,
    orderBookMaxAgeSec: 3600,
    ops: { host: '127.0.0.1', port: 0 },
  });
  return { service, client };
}

/** Runs of each job, as [start, end) intervals in ms. */
export async function runIntervals(sql: import('postgres').Sql) {
  const runs = await sql<{ job: string; started_at: Date; finished_at: Date | null; status: string }[]>`
    select job, started_at, finished_at, status from prediction.ingest_runs order by job, started_at`;
  return runs;
}
