import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request as the server saw it. `atMs` is performance.now(), comparable within the process. */
export interface Arrival {
  readonly method: string;
  /** Path and query exactly as received. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly atMs: number;
  /** Index among all arrivals, from 0. */
  readonly index: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Serialized as JSON (`null` included); ignored when `raw` is set. */
  json?: unknown;
  raw?: string | Buffer;
  /** Wait before answering. */
  delayMs?: number;
  /** Cut the connection without answering. */
  destroy?: boolean;
  /** Send the body chunked, in 10 pieces this far apart (no content-length). */
  trickleMs?: number;
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>/prediction/v1` */
  readonly baseUrl: string;
  readonly arrivals: Arrival[];
  close(): Promise<void>;
}

/** A real HTTP server on port 0 that records every request and answers with `handler`'s reply. */
export async function startRecordingServer(handler: (arrival: Arrival) => Reply | Promise<Reply>): Promise<RecordingServer> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const atMs = performance.now();
    const url = req.url ?? '/';
    const parsed = new URL(url, 'http://x');
    const arrival: Arrival = {
      method: req.method ?? 'GET',
      url,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      atMs,
      index: arrivals.length,
    };
    arrivals.push(arrival);
    req.resume();
    void Promise.resolve()
      .then(() => handler(arrival))
      .then((reply) => answer(res, reply))
      .catch((error: unknown) => answer(res, { status: 500, json: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/prediction/v1`,
    arrivals,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answer(res: ServerResponse, reply: Reply): Promise<void> {
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (reply.destroy) {
    res.socket?.destroy();
    return;
  }
  const body = reply.raw ?? JSON.stringify(reply.json === undefined ? {} : reply.json);
  const headers = { 'content-type': 'application/json', ...reply.headers };
  if (reply.trickleMs === undefined) {
    res.writeHead(reply.status ?? 200, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
    return;
  }
  res.writeHead(reply.status ?? 200, headers);
  const bytes = Buffer.from(body);
  const piece = Math.ceil(bytes.length / 10);
  for (let at = 0; at < bytes.length && !res.destroyed; at += piece) {
    res.write(bytes.subarray(at, at + piece));
    await new Promise((resolve) => setTimeout(resolve, reply.trickleMs));
  }
  res.end();
}
