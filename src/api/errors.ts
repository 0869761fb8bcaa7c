/**
 * Every error the API client throws. All extend `ApiError`, carry the request they concern
 * (method, route template, path with query: never the API key, which only travels as a header)
 * and keep their `cause`, so a caller can branch on the class and a log still shows the root.
 */

/** What an error says about the request it concerns. */
export interface ApiRequestContext {
  readonly method: 'GET';
  /** Route template used as a metrics label, e.g. `/events/{eventId}`. */
  readonly endpoint: string;
  /** Path and query as sent, e.g. `/prediction/v1/events?start=0&end=20`. */
  readonly target: string;
}

interface ApiErrorOptions {
  request?: ApiRequestContext | undefined;
  status?: number | undefined;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly request: ApiRequestContext | undefined;
  /** HTTP status of the response that caused the error, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, options: ApiErrorOptions = {}) {
    super(options.request ? `${message} (${options.request.method} ${options.request.target})` : message, {
      cause: options.cause,
    });
    // Every subclass is named after itself here, once: `name` is the class's own name.
    this.name = new.target.name;
    this.request = options.request;
    this.status = options.status;
  }
}

/** No key configured for a client that would talk to the real service. */
export class ApiKeyMissingError extends ApiError {
  constructor() {
    super(
      'No API key configured: set PREDICTION_API_KEY (the real service silently serves keyless requests at a ' +
        'much lower rate, so running without a key is refused unless PREDICTION_KEYLESS=true asks for it), or point ' +
        'PREDICTION_API_URL at the simulator (a loopback URL), which needs none',
    );
  }
}

/**
 * The key cannot travel as the `x-api-key` header (a line break, another control character, a
 * non-ASCII character). A configuration mistake, refused when the client is built: sent anyway,
 * undici rejects every request and the retry loop would report it as a network error.
 * The message says what is wrong and where, never the value.
 */
export class ApiKeyInvalidError extends ApiError {
  constructor(problem: string) {
    super(`PREDICTION_API_KEY cannot be sent as an HTTP header: it ${problem} (the value is not shown)`);
  }
}

/** A parameter violates a bound of the spec; nothing was sent. */
export class ApiRequestInvalidError extends ApiError {
  constructor(
    readonly endpoint: string,
    readonly parameter: string,
    readonly rule: string,
    received: unknown,
  ) {
    super(`Invalid request to GET ${endpoint}: ${parameter} ${rule}, got ${describe(received)}`);
  }
}

/** A non-success HTTP status. `detail` is the server's own message, shortened, secret-free. */
export class ApiHttpError extends ApiError {
  constructor(
    message: string,
    status: number,
    readonly detail: string | undefined,
    options: Omit<ApiErrorOptions, 'status'> = {},
  ) {
    super(detail ? `${message}: ${detail}` : message, { ...options, status });
  }
}

/** 400: the server refused the parameters. Not retried. */
export class ApiBadRequestError extends ApiHttpError {
  /** The query parameter the service's error body blames (its `param`, e.g. `provider`), when it names one. */
  readonly param: string | undefined;

  constructor(
    message: string,
    status: number,
    detail: string | undefined,
    options: Omit<ApiErrorOptions, 'status'> & { param?: string | undefined } = {},
  ) {
    super(message, status, detail, options);
    this.param = options.param;
  }
}

/** 404: the record does not exist (any more); callers may treat it as gone. Not retried. */
export class ApiNotFoundError extends ApiHttpError {}

/**
 * 401/403: the key is wrong or lacks access. Fatal for the whole client: it stops at once, every
 * queued and later request fails with this error and nothing more is sent.
 */
export class ApiKeyRejectedError extends ApiHttpError {}

/** 429 beyond the retry budget, or a pause longer than the client is allowed to wait. */
export class ApiRateLimitedError extends ApiHttpError {
  constructor(
    message: string,
    detail: string | undefined,
    /** How long the server asked to wait, when it said. */
    readonly retryAfterMs: number | undefined,
    options: Omit<ApiErrorOptions, 'status'> = {},
  ) {
    super(message, 429, detail, options);
  }
}

/** 5xx after every allowed attempt. */
export class ApiServerError extends ApiHttpError {}

/** Any other status (3xx, 405, 410, ...): not retried, since retrying cannot change it. */
export class ApiUnexpectedStatusError extends ApiHttpError {}

/** Connection refused/reset, DNS failure, socket timeouts: no usable response. */
export class ApiNetworkError extends ApiError {}

/** The overall per-request deadline passed (undici's own timeouts restart on every chunk). */
export class ApiTimeoutError extends ApiNetworkError {}

/** The response body exceeded the configured cap. Not retried: the next answer would be as large. */
export class ApiResponseTooLargeError extends ApiError {
  /** The cap it went over, bytes. */
  readonly capBytes: number | undefined;

  constructor(message: string, options: ApiErrorOptions & { capBytes?: number | undefined } = {}) {
    super(message, options);
    this.capBytes = options.capBytes;
  }
}

/** A success status whose body is not JSON. */
export class ApiInvalidJsonError extends ApiError {}

/** The body is JSON but not the shape the spec describes (see src/api/parse.ts). */
export class ApiResponseShapeError extends ApiError {}

/**
 * A paginated list cannot be trusted: a page that does not advance, an `end` far past the page
 * asked for or past `pagination.total`, more pages than `total` allows, or a page of ids already
 * seen. An upstream fault (the CLI exits 5), never a usage error: the parameters were ours.
 */
export class ApiPaginationError extends ApiError {}

/** The client was closed; the request was not (or no longer) sent. */
export class ApiClientClosedError extends ApiError {}

/**
 * The call was abandoned because of an abort: `client.abort()`, or the signal of a
 * `withSignal(signal)` view (its reason is the `cause`). Not an upstream failure: whatever was
 * queued, paused, backing off or in flight was dropped on purpose (the CLI exits 130).
 */
export class ApiRequestAbortedError extends ApiError {}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return typeof value;
}
