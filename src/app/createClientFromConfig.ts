import { createPredictionClient, type PredictionClient, type PredictionClientOptions } from '../api/client/index.js';
import type { Config } from '../config.js';
import { isLoopback } from '../net/isLoopback.js';

/** The client's rate limit for a plan of `rpm` requests per minute (`plan` replays the same). */
export const planRateLimit = (rpm: number): NonNullable<PredictionClientOptions['rateLimit']> => ({ requests: rpm, windowMs: 60_000 });

/**
 * The process's one API client, from the configuration. A loopback API URL can only be the
 * simulator (or a local proxy), so no key is required there; elsewhere a missing key is refused.
 */
export function createClientFromConfig(
  config: Pick<Config, 'apiUrl' | 'apiKey' | 'rateLimitRpm'> & Partial<Pick<Config, 'pageSize'>>,
  extra: Partial<PredictionClientOptions> = {},
): PredictionClient {
  return createPredictionClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    allowKeyless: isLoopback(config.apiUrl),
    rateLimit: planRateLimit(config.rateLimitRpm),
    ...(config.pageSize === undefined ? {} : { listingPageSize: config.pageSize }),
    ...extra,
  });
}
