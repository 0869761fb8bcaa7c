// Longer than most files: every option is documented where it is declared, with its default.
import type { Dispatcher } from 'undici';

import type { Logger } from '../../log/Logger.js';
import type { BackoffBounds } from '../../retry/backoffDelayMs.js';
import type { RequestEvent } from './RequestEvent.js';

/** The levels the client logs at (retries, 429 pauses, each request at debug); never given the key. */
export type ClientLogger = Pick<Logger, 'debug' | 'info' | 'warn'>;

export interface PredictionClientOptions {
  /**
  Base URL of the API, including the `/prediction/v1` prefix.
  */
  readonly baseUrl: string;

  /**
  The account's key, sent only as the `x-api-key` header: never logged, never put in a URL or an
  error message.

  @default undefined (refused unless `allowKeyless`)
  */
  readonly apiKey?: string | undefined;

  /**
  Allow running without a key. The real service answers keyless requests at a lower rate instead
  of refusing them, so without this flag a missing key throws `ApiKeyMissingError`; set it for the
  simulator or tests.

  @default false
  */
  readonly allowKeyless?: boolean;

  /**
  The account's limit: at most `requests` sends in any rolling window of `windowMs`, for every
  request of the process (retries included). Upstream counts per account over a 60 s sliding window.

  `marginMs` is added to the window the queue enforces. The server counts arrivals, not sends, and
  network delay varies between requests (a new connection's handshake delays its first request),
  so a window that holds at sending can be exceeded at arrival. 500 ms costs under 1% of a 60 s window.

  @default { requests: 60, windowMs: 60_000, marginMs: 500 }
  */
  readonly rateLimit?: { readonly requests: number; readonly windowMs?: number; readonly marginMs?: number };

  /**
  Requests in flight at once. Bounds sockets and memory (each may hold up to `maxResponseBytes`).

  @default 16
  */
  readonly concurrency?: number;

  /**
  Sends per call when the answer is a 5xx or a network failure (timeouts included), the first
  included. Then the last error is thrown.

  @default 5
  */
  readonly maxAttempts?: number;

  /**
  429 answers tolerated per call before it fails with `ApiRateLimitedError`. Higher than
  `maxAttempts`: a 429 is the server pacing us, not failing.

  @default 20
  */
  readonly maxRateLimitRetries?: number;

  /**
  Backoff between retries after a 5xx or network error: full jitter under
  `min(capMs, baseMs * 2^(retry-1))`.

  @default { baseMs: 500, capMs: 30_000 }
  */
  readonly backoff?: BackoffBounds;

  /**
  Pause after a 429 carrying neither `Retry-After` nor `x-ratelimit-reset`: `initialMs`, doubled on
  each such 429 in a row (reset by a success), at most `capMs`.

  @default { initialMs: 5_000, capMs: 60_000 }
  */
  readonly defaultRateLimitPause?: { readonly initialMs: number; readonly capMs: number };

  /**
  Longest pause a 429 may impose. A longer one is never shortened (that would only earn another
  429): instead the client fails with `ApiRateLimitedError`, like a rejected key, and the next run
  tries again.

  @default 900_000 (15 minutes)
  */
  readonly maxRateLimitWaitMs?: number;

  /**
  Timeout of the TCP/TLS connect.

  @default 10_000
  */
  readonly connectTimeoutMs?: number;

  /**
  Timeout until the response headers arrive.

  @default 30_000
  */
  readonly headersTimeoutMs?: number;

  /**
  Longest silence between two body chunks (undici restarts it on every chunk).

  @default 30_000
  */
  readonly bodyTimeoutMs?: number;

  /**
  Overall deadline of one attempt, from sending to the end of the body. A timeout is retried like
  a network error.

  @default 60_000
  */
  readonly requestTimeoutMs?: number;

  /**
  Largest response body accepted; a larger one fails with `ApiResponseTooLargeError`.

  @default 33_554_432 (32 MiB)
  */
  readonly maxResponseBytes?: number;

  /**
  Largest order-book body accepted (at most `maxResponseBytes`). A real book is a few KB (96
  levels: ~3 KB) and the largest one the level limits let through (4 arrays of 10,000 levels) is
  ~0.7 MB; a bigger body can only be rejected, so it is not downloaded further, let alone parsed:
  `getOrderBook` answers it as a rejected book (quarantined under the market's id) instead of
  throwing. This, times `concurrency`, is what books can cost in flight.

  @default 4_194_304 (4 MiB)
  */
  readonly maxOrderBookBytes?: number;

  /**
  Events asked for per page of GET /events (its `limit`, 1..100) when a call of `iterateEvents`
  names no page size. The server may answer fewer; paging follows what it answered.

  @default 100
  */
  readonly listingPageSize?: number;

  /**
  Called after every attempt that was sent, for metrics. Exceptions it throws are logged and ignored.

  @default undefined
  */
  readonly onRequest?: ((event: RequestEvent) => void) | undefined;

  /**
  Where retries, pauses and failures are reported.

  @default undefined (silent)
  */
  readonly logger?: ClientLogger | undefined;

  /**
  Source of randomness for the backoff jitter, in [0, 1). Injected by tests.

  @default Math.random
  */
  readonly random?: () => number;

  /**
  undici interceptors composed over the client's own Agent (which keeps its timeouts and size cap).
  For tests and instrumentation.

  @default []
  */
  readonly interceptors?: readonly Dispatcher.DispatcherComposeInterceptor[];

  /**
  Value of the `user-agent` header.

  @default 'prediction-ingest'
  */
  readonly userAgent?: string;
}

export type ResolvedClientOptions = Required<Omit<PredictionClientOptions, 'apiKey' | 'onRequest' | 'logger' | 'rateLimit'>> & {
  readonly apiKey: string | undefined;
  readonly onRequest: ((event: RequestEvent) => void) | undefined;
  readonly logger: ClientLogger | undefined;
  readonly rateLimit: { readonly requests: number; readonly windowMs: number; readonly marginMs: number };
};

/** Fills in the defaults and checks every number; throws a RangeError naming the bad option. */
export function resolveClientOptions(options: PredictionClientOptions): ResolvedClientOptions {
  const resolved: ResolvedClientOptions = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    allowKeyless: options.allowKeyless ?? false,
    rateLimit: {
      requests: options.rateLimit?.requests ?? 60,
      windowMs: options.rateLimit?.windowMs ?? 60_000,
      marginMs: options.rateLimit?.marginMs ?? 500,
    },
    concurrency: options.concurrency ?? 16,
    maxAttempts: options.maxAttempts ?? 5,
    maxRateLimitRetries: options.maxRateLimitRetries ?? 20,
    backoff: options.backoff ?? { baseMs: 500, capMs: 30_000 },
    defaultRateLimitPause: options.defaultRateLimitPause ?? { initialMs: 5_000, capMs: 60_000 },
    maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 900_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    headersTimeoutMs: options.headersTimeoutMs ?? 30_000,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    maxResponseBytes: options.maxResponseBytes ?? 32 * 1024 * 1024,
    maxOrderBookBytes: options.maxOrderBookBytes ?? 4 * 1024 * 1024,
    listingPageSize: options.listingPageSize ?? 100,
    onRequest: options.onRequest,
    logger: options.logger,
    random: options.random ?? Math.random,
    interceptors: options.interceptors ?? [],
    userAgent: options.userAgent ?? 'prediction-ingest',
  };
  const positive: Record<string, number> = {
    'rateLimit.requests': resolved.rateLimit.requests,
    'rateLimit.windowMs': resolved.rateLimit.windowMs,
    concurrency: resolved.concurrency,
    maxAttempts: resolved.maxAttempts,
    connectTimeoutMs: resolved.connectTimeoutMs,
    headersTimeoutMs: resolved.headersTimeoutMs,
    bodyTimeoutMs: resolved.bodyTimeoutMs,
    requestTimeoutMs: resolved.requestTimeoutMs,
    maxResponseBytes: resolved.maxResponseBytes,
    maxOrderBookBytes: resolved.maxOrderBookBytes,
    listingPageSize: resolved.listingPageSize,
    maxRateLimitWaitMs: resolved.maxRateLimitWaitMs,
    'defaultRateLimitPause.initialMs': resolved.defaultRateLimitPause.initialMs,
  };
  for (const [name, value] of Object.entries(positive)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Option ${name} must be a positive integer, got ${value}`);
  }
  const nonNegative: Record<string, number> = {
    maxRateLimitRetries: resolved.maxRateLimitRetries,
    'rateLimit.marginMs': resolved.rateLimit.marginMs,
    'backoff.baseMs': resolved.backoff.baseMs,
    'backoff.capMs': resolved.backoff.capMs,
    'defaultRateLimitPause.capMs': resolved.defaultRateLimitPause.capMs,
  };
  for (const [name, value] of Object.entries(nonNegative)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Option ${name} must be an integer >= 0, got ${value}`);
  }
  return resolved;
}
