import { createPredictionClient, type PredictionClient, type PredictionClientOptions } from '../api/client/index.js';
import type { Config } from '../config.js';
import { isLoopback } from '../net/isLoopback.js';
import { planRateLimit } from './planRateLimit.js';

/**
 * The process's one API client, from the configuration. A loopback API URL can only be the
 * simulator (or a local proxy), so no key is required there; elsewhere a missing key is refused,
 * unless PREDICTION_KEYLESS asks to read the service keyless (keylessWarning says so).
 */
export function createClientFromConfig(
  config: Pick<Config, 'apiUrl' | 'apiKey' | 'rateLimitRpm' | 'keyless'> & Partial<Pick<Config, 'pageSize'>>,
  extra: Partial<PredictionClientOptions> = {},
): PredictionClient {
  return createPredictionClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    allowKeyless: config.keyless || isLoopback(config.apiUrl),
    rateLimit: planRateLimit(config.rateLimitRpm),
    ...(config.pageSize === undefined ? {} : { listingPageSize: config.pageSize }),
    ...extra,
  });
}

/** What to warn of when the service is read without a key on request; null otherwise. */
export function keylessWarning(config: Pick<Config, 'apiUrl' | 'apiKey' | 'rateLimitRpm' | 'keyless'>): string | null {
  if (!config.keyless || isLoopback(config.apiUrl)) return null;
  return (
    `PREDICTION_KEYLESS=true: reading ${config.apiUrl} without a key, at the keyless rate (${config.rateLimitRpm} requests/min, ` +
    "and no more than the gateway's window allows). A crawl takes much longer than with a key; for a key, see the API provider's developer portal."
  );
}
