import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import type { Sql } from '../../src/db/connect.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/simulator/index.js';
import { runSyncCycle, type SyncOptions, type SyncResult } from '../../src/sync/runSyncCycle.js';

export const API_KEY = 'test-key-5f2c91';

/**
 * The environment of a CLI process run against `databaseUrl` and the upstream at `apiUrl`, with the
 * test key, a rate limit the tests never reach and no log lines; `extra` adds or overrides settings.
 */
export function cliEnv(databaseUrl: string, apiUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PREDICTION_API_URL: apiUrl,
    PREDICTION_API_KEY: API_KEY,
    PREDICTION_RATE_LIMIT_RPM: '1000000',
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

/**
 * A simulator on a manual clock, and a client against it that retries fast. `options.shape`
 * defaults to 'spec' here (the simulator's own default is 'live'): pass `shape: 'live'` or
 * 'mixed' to sync against those shapes.
 */
export async function startHarness(options: SimulatorOptions = {}): Promise<{ sim: Simulator; newClient: () => PredictionClient }> {
  const sim = await startSimulator({
    shape: 'spec',
    seed: 7,
    markets: 150,
    apiKey: API_KEY,
    rateLimit: { requests: 1_000_000, windowMs: 60_000 },
    subSecondRetryAfter: true,
    ...options,
  });
  const newClient = () =>
    createPredictionClient({
      baseUrl: sim.url,
      apiKey: API_KEY,
      rateLimit: { requests: 1_000_000, windowMs: 60_000 },
      backoff: { baseMs: 5, capMs: 50 },
      defaultRateLimitPause: { initialMs: 50, capMs: 200 },
      maxAttempts: 8,
      maxRateLimitRetries: 50,
    });
  return { sim, newClient };
}

/** One uninterrupted cycle with a client of its own: the database a test's outcome is compared with. */
export async function referenceSync(sql: Sql, sim: Simulator): Promise<void> {
  const client = createPredictionClient({ baseUrl: sim.url, apiKey: API_KEY, rateLimit: { requests: 1_000_000, windowMs: 60_000 } });
  try {
    await syncOnce(sql, client, sim);
  } finally {
    await client.close();
  }
}

/** One cycle over every provider and category, observed on the simulator's clock. */
export function syncOnce(sql: Sql, client: PredictionClient, sim: Simulator, options: Partial<SyncOptions> = {}): Promise<SyncResult> {
  return runSyncCycle(sql, client, {
    providers: KNOWN_PROVIDERS,
    categories: CONCRETE_CATEGORIES,
    maxOrderBooks: null,
    now: () => new Date(sim.world.nowSec * 1000),
    ...options,
  });
}
