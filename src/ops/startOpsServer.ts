import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Readiness } from './readiness.js';

/** The logger methods used; a pino logger fits. */
export interface OpsLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface OpsServerOptions {
  /** Interface to bind. Default: `127.0.0.1` (metrics are not for the world); `0.0.0.0` in a container. */
  host?: string;
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  /** What `/metrics` serves: `createMetrics().registry`, or anything holding a prom-client registry. */
  metrics: { registry: Registry } | Registry;
  /** Answers `/readyz`: see `createReadiness`. */
  readiness: Readiness;
  /** Gets one line when listening and one per failed probe. Default: silent. */
  logger?: OpsLogger;
}

export interface OpsServer {
  /** Base URL, e.g. `http://127.0.0.1:9464`. */
  readonly url: string;
  /** The bound port (the chosen one when asked for 0). */
  readonly port: number;
  /** Stops listening and closes every connection, keep-alive ones included. Idempotent. */
  close(): Promise<void>;
}

export class OpsServerError extends Error {
  override name = 'OpsServerError';
}

/**
 * Serves `GET /healthz` (200 while the process is up), `GET /readyz` (200 when ready, 503 if not,
 * with the checks as JSON) and `GET /metrics` (Prometheus text format). Other paths are 404,
 * other methods than GET and HEAD 405.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const host = options.host ?? '127.0.0.1';
  const registry = 'registry' in options.metrics ? options.metrics.registry : options.metrics;
  const routes: Record<string, () => Promise<Reply>> = {
    '/healthz': async () => json(200, { status: 'ok' }),
    '/readyz': async () => {
      try {
        const result = await options.readiness();
        if (!result.ready) options.logger?.warn({ checks: result.checks }, 'not ready');
        return json(result.ready ? 200 : 503, result);
      } catch (error) {
        // A readiness function that throws is a broken probe, and the honest answer is "not ready".
        options.logger?.warn({ err: error }, 'readiness check threw');
        return json(503, { ready: false, checks: { readiness: { ok: false, detail: describe(error) } } });
      }
    },
    '/metrics': async () => {
      try {
        return { status: 200, type: registry.contentType, body: await registry.metrics() };
      } catch (error) {
        options.logger?.warn({ err: error }, 'collecting metrics failed');
        return { status: 500, type: 'text/plain; charset=utf-8', body: `collecting metrics failed: ${describe(error)}\n` };
      }
    },
  };

  const server = createServer((req, res) => {
    handle(req, res, routes).catch((error: unknown) => {
      options.logger?.warn({ err: error }, 'ops request failed');
      res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(new OpsServerError(`Cannot listen on ${host}:${options.port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(options.port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.logger?.info({ url }, 'ops server listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // server.close() alone waits for idle keep-alive sockets (a Prometheus scraper's) to time out.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

interface Reply {
  status: number;
  type: string;
  body: string;
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: Record<string, () => Promise<Reply>>): Promise<void> {
  let reply: Reply;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    reply = json(405, { error: 'method not allowed' });
  } else {
    const path = new URL(req.url ?? '/', 'http://ops').pathname;
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    reply = route ? await route() : json(404, { error: 'not found' });
  }
  res.writeHead(reply.status, {
    'Content-Type': reply.type,
    'Content-Length': Buffer.byteLength(reply.body),
    // Probes and scrapes must see the present, never a cached answer.
    'Cache-Control': 'no-store',
  });
  // Node sends no body for HEAD, whatever is passed here.
  res.end(reply.body);
}

function json(status: number, value: unknown): Reply {
  return { status, type: 'application/json; charset=utf-8', body: `${JSON.stringify(value)}\n` };
}

function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message);
  return parts.join(': ') || String(error);
}
