/**
 * The loopback HTTP server and its request pipeline:
 *   base path -> method -> auth (401) -> storm fault (429) -> sliding window (429)
 *   -> [accepted] -> hang fault -> latency fault -> 5xx fault -> route (400/404/200).
 * Storm 429s and real 429s are not counted as accepted; injected 5xx are (the upstream spent
 * the quota before failing). The x-ratelimit-* headers go out on every response that reached
 * the limiter. Longer than most files because the pipeline reads best in one place.
 */
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Faults } from '../faults/faults.js';
import { authenticate } from '../limits/authenticate.js';
import type { FixedWindowLimiter } from '../limits/fixedWindowLimiter.js';
import { limitHeaders, secondsText } from '../limits/retryHeaders.js';
import type { SlidingWindowLimiter } from '../limits/slidingWindowLimiter.js';
import type { RequestLog, RequestOutcome, RequestRecord } from '../observe/requestLog.js';
import type { World } from '../World.js';
import { gatewayError, HttpError, serverError, serviceError } from './httpErrors.js';
import { QueryParams } from './queryParams.js';
import { resolveRoute } from './router.js';

export const BASE_PATH = '/prediction/v1';

/** The message of the gateway's 429, as the live service sent it on 2026-07-05. */
export const GATEWAY_TOO_MANY_REQUESTS = '[API Gateway] Too many requests';

/** Serving settings read on every request, so tests can change them at runtime. */
export interface ServingSettings {
  /** Expected x-api-key; undefined accepts any non-empty key. */
  apiKey: string | undefined;
  /** Cap on end - start for list endpoints. */
  maxPageSize: number;
  /** Cap on a GET /events page asked for by `limit`. */
  maxLimit: number;
  /** Rate-limit headers in decimal seconds instead of integer seconds (for short test windows). */
  subSecondRetryAfter: boolean;
}

export interface ServerDeps {
  world: World;
  settings: ServingSettings;
  limiters: { keyed: SlidingWindowLimiter; keyless: SlidingWindowLimiter };
  /** The gateway's own window in front of both, when set: its headers go out on every answer it passed. */
  gateway: FixedWindowLimiter | undefined;
  faults: Faults;
  log: RequestLog;
  /** Wall clock for the limiter and the log. */
  nowMs: () => number;
}

export interface RunningServer {
  readonly port: number;
  readonly url: string;
  /** Closes every socket (hung requests included) and waits for the server to close. */
  close(): Promise<void>;
}

const outcomeOf = (status: number): RequestOutcome =>
  status === 200
    ? 'ok'
    : status === 401
      ? 'unauthorized'
      : status === 429
        ? 'rate_limited'
        : status >= 500
          ? 'server_error'
          : 'client_error';

export async function startHttpServer(deps: ServerDeps, port: number): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const stopping = new AbortController();
  // Each delayed request in flight listens to it, and there may be hundreds: not a leak.
  setMaxListeners(0, stopping.signal);
  let requestSeq = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      url = new URL('http://127.0.0.1/'); // unparseable target: answered 404 below, never a crash
    }
    const record = deps.log.begin(deps.nowMs(), req.method ?? 'GET', url.pathname, url.searchParams);
    const requestId = `req_${(requestSeq++).toString(16).padStart(10, '0')}`;
    let rateHeaders: Record<string, string> = {};
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      respond(res, record, deps.nowMs, status, body, { ...rateHeaders, ...headers, 'x-request-id': requestId }, outcomeOf(status));
    try {
      await pipeline(deps, req, url, record, stopping.signal, (h) => (rateHeaders = h));
      const handler = resolveRoute(url.pathname.slice(BASE_PATH.length));
      const ctx = {
        world: deps.world,
        query: new QueryParams(url.searchParams),
        params: handler.params,
        maxPageSize: deps.settings.maxPageSize,
        maxLimit: deps.settings.maxLimit,
        recordFaults: { seed: deps.world.seed, faults: deps.faults.get() },
        faults: deps.faults,
      };
      send(200, handler.handler(ctx));
    } catch (err) {
      if (err === HUNG || stopping.signal.aborted) return;
      if (err instanceof HttpError) {
        send(err.status, err.body(requestId), err.headers);
      } else {
        send(500, serverError(500).body(requestId));
      }
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}${BASE_PATH}`,
    close: async () => {
      stopping.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** Thrown to abandon a request without answering (the hang fault). */
const HUNG = Symbol('hung');

/** Everything before routing; hands the rate-limit headers for the response to `setHeaders`. */
async function pipeline(
  deps: ServerDeps,
  req: IncomingMessage,
  url: URL,
  record: RequestRecord,
  signal: AbortSignal,
  setHeaders: (h: Record<string, string>) => void,
): Promise<void> {
  const { settings, faults } = deps;
  if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) throw gatewayError(404, 'Not found');
  if (req.method !== 'GET')
    throw serviceError(405, 'invalid_request_error', `Method ${req.method} not allowed`, { code: 'method_not_allowed' }, { allow: 'GET' });

  record.keyState = authenticate(req.headers['x-api-key'], settings.apiKey);
  if (record.keyState === 'invalid') throw gatewayError(401, 'Invalid API key');

  const limiter = record.keyState === 'valid' ? deps.limiters.keyed : deps.limiters.keyless;
  if (faults.drawStorm()) {
    const retryMs = faults.get().stormRetryAfterMs;
    const subSecond = settings.subSecondRetryAfter || retryMs % 1000 !== 0;
    const nowMs = deps.nowMs();
    record.outcome = 'storm';
    throw gatewayError(429, 'Rate limit exceeded', {
      'retry-after': secondsText(retryMs, subSecond),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-current': String(limiter.config.requests),
      'x-ratelimit-reset': secondsText(nowMs + retryMs, subSecond),
    });
  }
  if (deps.gateway) {
    // The gateway answers before the service: no Retry-After, and its own body (live-facts, addendum).
    const { allowed, remaining, current, resetAtMs } = deps.gateway.tryAcquire(record.timeMs);
    const headers = limitHeaders({ remaining, current, resetAtMs }, settings.subSecondRetryAfter);
    if (!allowed) throw gatewayError(429, GATEWAY_TOO_MANY_REQUESTS, headers);
    setHeaders(headers);
  }
  const decision = limiter.tryAcquire(record.timeMs);
  const { remaining, current, resetAtMs } = decision;
  if (!deps.gateway) setHeaders(limitHeaders({ remaining, current, resetAtMs }, settings.subSecondRetryAfter));
  if (!decision.allowed) {
    throw gatewayError(
      429,
      'Rate limit exceeded',
      limitHeaders({ remaining, current, resetAtMs, retryAfterMs: decision.retryAfterMs }, settings.subSecondRetryAfter),
    );
  }
  record.accepted = true;

  if (faults.drawHang()) {
    record.outcome = 'hung';
    throw HUNG;
  }
  const delayMs = faults.drawLatencyMs();
  // A stop cuts the wait short; the request is then dropped like a hung one.
  if (delayMs > 0) await sleep(delayMs, undefined, { signal }).catch(() => Promise.reject(HUNG));
  const status = faults.drawServerError();
  if (status !== undefined) throw serverError(status);
}

function respond(
  res: ServerResponse,
  record: RequestRecord,
  nowMs: () => number,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  outcome: RequestOutcome,
): void {
  record.status = status;
  if (record.outcome !== 'storm') record.outcome = outcome;
  record.finishedMs = nowMs();
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}
