import { describe, expect, it } from 'vitest';

import { ApiKeyMissingError } from '../../../src/api/client/index.js';
import { createClientFromConfig, keylessWarning } from '../../../src/app/createClientFromConfig.js';
import { ConfigError, KEYLESS_RPM, parseConfig } from '../../../src/config.js';

/** PREDICTION_KEYLESS=true: the real service read without a key, at the keyless rate, with a warning. */
describe('keyless on request', () => {
  const REAL = { PREDICTION_API_URL: 'https://api.example.com/prediction/v1' };

  it('is off by default: a missing key is refused for a real service, as before', () => {
    const config = parseConfig(REAL);
    expect([config.keyless, config.rateLimitRpm]).toEqual([false, 60]);
    expect(() => createClientFromConfig(config)).toThrow(ApiKeyMissingError);
    expect(keylessWarning(config)).toBeNull();
  });

  it('reads the real service without a key at the keyless default rate, and warns', async () => {
    const config = parseConfig({ ...REAL, PREDICTION_KEYLESS: 'true' });
    expect([config.keyless, config.rateLimitRpm, config.apiKey]).toEqual([true, KEYLESS_RPM, undefined]);
    expect(KEYLESS_RPM).toBe(30);
    const client = createClientFromConfig(config);
    expect(client.stats().planRequestsPerMinute).toBe(30);
    await client.close();
    expect(keylessWarning(config)).toMatch(
      /^PREDICTION_KEYLESS=true: reading https:\/\/api\.example\.com\/prediction\/v1 without a key, at the keyless rate \(30 requests\/min/,
    );
  });

  it('keeps an explicit plan, and refuses a key beside it, naming both settings', () => {
    expect(parseConfig({ ...REAL, PREDICTION_KEYLESS: 'true', PREDICTION_RATE_LIMIT_RPM: '12' }).rateLimitRpm).toBe(12);
    expect(() => parseConfig({ ...REAL, PREDICTION_KEYLESS: 'true', PREDICTION_API_KEY: 'k-123456' })).toThrow(ConfigError);
    expect(() => parseConfig({ ...REAL, PREDICTION_KEYLESS: 'true', PREDICTION_API_KEY: 'k-123456' })).toThrow(
      /PREDICTION_KEYLESS=true .* PREDICTION_API_KEY is set/,
    );
    expect(() => parseConfig({ ...REAL, PREDICTION_KEYLESS: 'yes' })).toThrow(/PREDICTION_KEYLESS must be true or false/);
  });
});
