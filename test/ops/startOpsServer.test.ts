import { Agent, request } from 'node:http';
import { connect } from 'node:net';

import { Gauge } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';

import { createMetrics } from '../../src/ops/metrics.js';
import type { ReadinessResult } from '../../src/ops/readiness.js';
import { type OpsServer, OpsServerError, startOpsServer } from '../../src/ops/startOpsServer.js';

const servers: OpsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(readiness: () => Promise<ReadinessResult> = async () => ({ ready: true, checks: {} })): Promise<OpsServer> {
  const server = await startOpsServer({ port: 0, metrics: createMetrics({ processMetrics: false }), readiness });
  servers.push(server);
  return server;
}

describe('startOpsServer', () => {
  it('binds 127.0.0.1 on a free port by default', async () => {
    const server = await start();
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('answers /healthz while up', async () => {
    const server = await start();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 or 503 and the checks', async () => {
    let result: ReadinessResult = { ready: true, checks: { database: { ok: true } } };
    const server = await start(async () => result);
    let res = await fetch(`${server.url}/readyz?verbose=1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(result);

    result = { ready: false, checks: { database: { ok: false, detail: 'select 1 failed: ECONNREFUSED' } } };
    res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(result);
  });

  it('answers 503 when the readiness function throws, its error in the log only', async () => {
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const broke = new Error('probe broke', { cause: new Error('connect ECONNREFUSED 10.0.0.5:5432') });
    const server = await startOpsServer({
      port: 0,
      metrics: createMetrics({ processMetrics: false }),
      readiness: async () => {
        throw broke;
      },
      logger: { info: () => {}, warn: (obj, msg) => void warnings.push({ obj: obj as Record<string, unknown>, msg }) },
    });
    servers.push(server);
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ready: false,
      checks: { readiness: { ok: false, detail: 'readiness check failed (the cause is in the service log)' } },
    });
    expect(warnings).toEqual([{ obj: { err: broke }, msg: 'readiness check threw' }]);
  });

  it('sends only ok and detail of each check: a cause is logged, never sent', async () => {
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const cause = Object.assign(new Error('password authentication failed for user "ingest"'), { code: '28P01' });
    const server = await startOpsServer({
      port: 0,
      metrics: createMetrics({ processMetrics: false }),
      readiness: async () => ({
        ready: false,
        checks: {
          database: { ok: false, detail: 'database unreachable', cause, extra: 'not for the caller' } as ReadinessResult['checks'][string],
          'job:crawl': { ok: true },
        },
      }),
      logger: { info: () => {}, warn: (obj, msg) => void warnings.push({ obj: obj as Record<string, unknown>, msg }) },
    });
    servers.push(server);
    const res = await fetch(`${server.url}/readyz`);
    const text = await res.text();
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toEqual({
      ready: false,
      checks: { database: { ok: false, detail: 'database unreachable' }, 'job:crawl': { ok: true } },
    });
    expect(text).not.toMatch(/ingest|28P01|password|extra/);
    expect(warnings).toEqual([
      { obj: { check: 'database', err: cause }, msg: 'readiness check failed' },
      { obj: { checks: { database: { ok: false, detail: 'database unreachable' }, 'job:crawl': { ok: true } } }, msg: 'not ready' },
    ]);
  });

  it('answers 500 without the error text when collecting metrics fails', async () => {
    const metrics = createMetrics({ processMetrics: false });
    new Gauge({
      name: 'broken_metric',
      help: 'throws when collected',
      registers: [metrics.registry],
      collect() {
        throw new Error('secret host 10.0.0.5');
      },
    });
    const server = await startOpsServer({ port: 0, metrics, readiness: async () => ({ ready: true, checks: {} }) });
    servers.push(server);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('collecting metrics failed (the cause is in the service log)\n');
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const server = await start();
    expect((await fetch(`${server.url}/`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics/extra`)).status).toBe(404);
    expect((await fetch(`${server.url}/constructor`)).status).toBe(404);
    const post = await fetch(`${server.url}/healthz`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${server.url}/metrics`, { method: 'DELETE' })).status).toBe(405);
  });

  it('answers HEAD with the headers and no body', async () => {
    const server = await start();
    const res = await fetch(`${server.url}/metrics`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toBe('');
  });

  it('fails to start on a port in use, keeping the cause', async () => {
    const first = await start();
    const error = await startOpsServer({
      port: first.port,
      metrics: createMetrics(),
      readiness: async () => ({ ready: true, checks: {} }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpsServerError);
    expect((error as Error).cause).toMatchObject({ code: 'EADDRINUSE' });
  });

  it('close() ends connections that clients hold open, and is idempotent', async () => {
    const server = await startOpsServer({ port: 0, metrics: createMetrics(), readiness: async () => ({ ready: true, checks: {} }) });
    // An idle keep-alive connection, as a Prometheus scraper keeps between scrapes.
    const agent = new Agent({ keepAlive: true });
    const { keepAliveClosed } = await new Promise<{ keepAliveClosed: Promise<void> }>((resolve, reject) => {
      const req = request(`${server.url}/healthz`, { agent }, (res) => {
        res.resume();
        // Wrapped in an object: resolving with the bare promise would wait for the socket to close.
        res.on('end', () => resolve({ keepAliveClosed: new Promise<void>((done) => req.socket!.once('close', () => done())) }));
      });
      req.on('error', reject);
      req.end();
    });
    // A client stuck halfway through its request headers: server.close() alone would wait for it
    // for minutes (headersTimeout), so this test would hang without closing connections.
    const stuck = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => stuck.once('connect', () => resolve()));
    stuck.write('GET /healthz HTTP/1.1\r\nHost: ops\r\n');
    const stuckClosed = new Promise<void>((resolve) => stuck.once('close', () => resolve()));
    stuck.on('error', () => {});

    await Promise.all([server.close(), server.close()]);
    await Promise.all([keepAliveClosed, stuckClosed]);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    agent.destroy();
  });
});
