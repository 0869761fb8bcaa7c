import { createPredictionClient, type PredictionClient, type PredictionClientOptions } from '../api/client/index.js';
import type { Config } from '../config.js';
import { isLoopback } from '../net/isLoopback.js';

/**
 * The process's one API client, from the configuration. A loopback API URL can only be the
 * simulator (or a local proxy), so no key is required there; elsewhere a missing key is refused.
 */
export function createClientFromConfig(
  config: Pick<Config, 'apiUrl' | 'apiKey' | 'rateLimitRpm'>,
  extra: Partial<PredictionClientOptions> = {},
): PredictionClient {
  return createPredictionClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    allowKeyless: isLoopback(config.apiUrl),
    rateLimit: { requests: config.rateLimitRpm, windowMs: 60_000 },
    ...extra,
  });
}
