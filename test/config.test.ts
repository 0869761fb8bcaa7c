import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      apiUrl: 'https://api.jup.ag/prediction/v1',
      apiKey: undefined,
      rateLimitRpm: 60,
      providers: ['kalshi', 'polymarket'],
      categories: ['all'],
      maxRejectedPercent: 5,
      dataDir: './data',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/x',
      PREDICTION_API_URL: 'http://127.0.0.1:8080/prediction/v1/',
      PREDICTION_API_KEY: ' k ',
      PREDICTION_RATE_LIMIT_RPM: '600',
      PREDICTION_PROVIDERS: 'polymarket,bisonfi',
      PREDICTION_CATEGORIES: 'crypto, sports',
      MAX_REJECTED_PERCENT: '12.5',
      DATA_DIR: '/tmp/x',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/x',
      apiUrl: 'http://127.0.0.1:8080/prediction/v1',
      apiKey: 'k',
      rateLimitRpm: 600,
      providers: ['polymarket', 'bisonfi'],
      categories: ['crypto', 'sports'],
      maxRejectedPercent: 12.5,
      dataDir: '/tmp/x',
    });
  });

  it.each([
    ['PREDICTION_RATE_LIMIT_RPM', 'abc', 'PREDICTION_RATE_LIMIT_RPM must be a positive integer, got "abc"'],
    ['PREDICTION_RATE_LIMIT_RPM', '0', 'PREDICTION_RATE_LIMIT_RPM must be a positive integer, got "0"'],
    ['PREDICTION_RATE_LIMIT_RPM', '1.5', 'PREDICTION_RATE_LIMIT_RPM must be a positive integer, got "1.5"'],
    ['PREDICTION_PROVIDERS', 'kalshi,Bison Fi', 'PREDICTION_PROVIDERS must be a comma-separated list of provider names (kalshi, polymarket, …), got "kalshi,Bison Fi"'],
    ['MAX_REJECTED_PERCENT', '101', 'MAX_REJECTED_PERCENT must be a percentage from 0 to 100, got "101"'],
    ['MAX_REJECTED_PERCENT', '-1', 'MAX_REJECTED_PERCENT must be a percentage from 0 to 100, got "-1"'],
    ['PREDICTION_CATEGORIES', 'crypto,weather', 'PREDICTION_CATEGORIES must be a comma-separated list of'],
    ['PREDICTION_API_URL', 'ftp://x', 'PREDICTION_API_URL must be a http: or https: URL, got "ftp://x"'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of'],
  ])('names %s in the error for %j', (name, value, message) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(message);
  });

  it('never echoes a database URL, which may hold a password', () => {
    expect(() => parseConfig({ DATABASE_URL: 'mysql://user:s3cret@h/db' })).toThrow(/DATABASE_URL must be a postgres: or postgresql: URL, got \(value hidden\)/);
    try {
      parseConfig({ DATABASE_URL: 'mysql://user:s3cret@h/db' });
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('s3cret');
    }
  });

  it('reports every bad variable at once', () => {
    expect(() => parseConfig({ PREDICTION_RATE_LIMIT_RPM: 'x', DATA_DIR: ' ' })).toThrow(/PREDICTION_RATE_LIMIT_RPM.*; DATA_DIR must not be empty/);
  });
});
