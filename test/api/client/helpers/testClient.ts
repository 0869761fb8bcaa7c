import { createPredictionClient, type PredictionClient } from '../../../../src/api/client/index.js';
import type { PredictionClientOptions } from '../../../../src/api/client/PredictionClientOptions.js';

export const TEST_KEY = 'sk-test-Zq9v7XkP3mN8wR2t';

/** A client tuned for tests: generous rate limit, millisecond backoffs, short pauses. */
export function testClient(baseUrl: string, overrides: Partial<PredictionClientOptions> = {}): PredictionClient {
  return createPredictionClient({
    baseUrl,
    apiKey: TEST_KEY,
    rateLimit: { requests: 1000, windowMs: 1000 },
    backoff: { baseMs: 2, capMs: 10 },
    defaultRateLimitPause: { initialMs: 20, capMs: 100 },
    ...overrides,
  });
}
