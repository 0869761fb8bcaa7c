import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Registry } from 'prom-client';

import type { Logger } from '../log/Logger.js';
import type { Liveness } from './liveness.js';
import type { Readiness, ReadinessCheck } from './readiness.js';

export interface OpsServerOptions {
  /** Interface to bind. Default: `127.0.0.1` (metrics are not for the world); `0.0.0.0` in a container. */
  host?: string;
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  /** What `/metrics` serves: `createMetrics().registry`, or anything holding a prom-client registry. */
  metrics: { registry: Registry } | Registry;
  /** Answers `/readyz`: see `createReadiness`. */
  readiness: Readiness;
  /**
   * Answers `/healthz`: see `createLiveness`. Default: none, and `/healthz` answers 200 while the
   * process is up.
   */
  liveness?: Pick<Liveness, 'check'>;
  /**
   * Gets one line when listening, one per failed probe, and the error behind each failed readiness
   * check (which the answer itself never carries). Default: silent.
   */
  logger?: Pick<Logger, 'info' | 'warn'>;
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
 * Serves `GET /healthz` (200 `{status:'ok'}` while live, else 503 with the failing checks; always
 * 200 without `liveness`), `GET /readyz` (200 when ready, 503 if not, with the checks as JSON) and
 * `GET /metrics` (Prometheus text format). Other paths are 404, other methods than GET and HEAD 405.
 *
 * An answer never carries an error's own text (a database driver's message names hosts, users and
 * SQL): the details go to the logger, the caller gets a fixed sentence.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const host = options.host ?? '127.0.0.1';
  const registry = 'registry' in options.metrics ? options.metrics.registry : options.metrics;
  const routes: Record<string, () => Promise<Reply>> = {
    '/healthz': async () => {
      if (!options.liveness) return json(200, { status: 'ok' });
      try {
        const result = options.liveness.check();
        if (result.live) return json(200, { status: 'ok' });
        const failing = Object.fromEntries(Object.entries(result.checks).filter(([, c]) => !c.ok));
        options.logger?.warn({ checks: failing }, 'not live: no job has made progress');
        return json(503, { status: 'stalled', checks: failing });
      } catch (error) {
        // As for readiness: a probe that throws is broken, and says so rather than "ok".
        options.logger?.warn({ err: error }, 'liveness check threw');
        return json(503, {
          status: 'stalled',
          checks: { liveness: { ok: false, detail: 'liveness check failed (the cause is in the service log)' } },
        });
      }
    },
    '/readyz': async () => {
      try {
        const result = await options.readiness();
        const checks: Record<string, ReadinessCheck> = {};
        for (const [name, check] of Object.entries(result.checks)) {
          if (check.cause !== undefined) options.logger?.warn({ check: name, err: check.cause }, 'readiness check failed');
          // Only these two fields leave the process: `cause` (and whatever else a check carries) stays here.
          checks[name] = check.detail === undefined ? { ok: check.ok } : { ok: check.ok, detail: check.detail };
        }
        if (!result.ready) options.logger?.warn({ checks }, 'not ready');
        return json(result.ready ? 200 : 503, { ready: result.ready, checks });
      } catch (error) {
        // A readiness function that throws is a broken probe, and the honest answer is "not ready".
        options.logger?.warn({ err: error }, 'readiness check threw');
        return json(503, {
          ready: false,
          checks: { readiness: { ok: false, detail: 'readiness check failed (the cause is in the service log)' } },
        });
      }
    },
    '/metrics': async () => {
      try {
        return { status: 200, type: registry.contentType, body: await registry.metrics() };
      } catch (error) {
        options.logger?.warn({ err: error }, 'collecting metrics failed');
        return { status: 500, type: 'text/plain; charset=utf-8', body: 'collecting metrics failed (the cause is in the service log)\n' };
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
    const onError = (error: Error) =>
      reject(new OpsServerError(`Cannot listen on ${host}:${options.port}: ${error.message}`, { cause: error }));
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
