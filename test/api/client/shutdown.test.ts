import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiClientClosedError, ApiRequestAbortedError, type PredictionClient } from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { requestedId, wireMarket } from './helpers/wire.js';

/** Generous: each abort below is expected within milliseconds; this only keeps a loaded machine from failing the test. */
const PROMPT_MS = 3000;

/** Settles `calls`, timing from now: how long after an abort they took to reject. */
async function settledWithin(calls: Promise<unknown>[]): Promise<{ results: unknown[]; ms: number }> {
  const started = Date.now();
  const results = await Promise.all(
    calls.map((c) =>
      c.then(
        (r) => r,
        (e: unknown) => e,
      ),
    ),
  );
  return { results, ms: Date.now() - started };
}

describe('close() and abort()', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.abort();
    await server?.close();
  });

  it('close() rejects queued calls, lets the one in flight finish, then sends nothing more', async () => {
    server = await startRecordingServer((a) => ({ delayMs: 50, json: wireMarket(requestedId(a.path)) }));
    client = testClient(server.baseUrl, { concurrency: 1 });
    const calls = Array.from({ length: 5 }, (_, i) =>
      client.getMarket(`M-${i}`).then(
        (r) => r,
        (e: unknown) => e,
      ),
    );
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(1), { timeout: 10_000 });
    expect(client.stats().queue).toEqual({ size: 4, pending: 1 });
    await client.close();
    const results = await Promise.all(calls);
    expect(results[0]).toMatchObject({ ok: true });
    for (const r of results.slice(1)) expect(r).toBeInstanceOf(ApiClientClosedError);
    await expect(client.getMarket('M-9')).rejects.toBeInstanceOf(ApiClientClosedError);
    expect(server.arrivals).toHaveLength(1);
    expect(client.stats().state).toBe('closed');
  });

  it('abort() also cuts the request in flight, with ApiRequestAbortedError', async () => {
    server = await startRecordingServer(() => ({ delayMs: 5000, json: wireMarket('M-1') }));
    client = testClient(server.baseUrl);
    const call = client.getMarket('M-1').catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(1), { timeout: 10_000 });
    const started = Date.now();
    await client.abort();
    expect(await call).toBeInstanceOf(ApiRequestAbortedError);
    expect(Date.now() - started).toBeLessThan(PROMPT_MS);
    expect(client.stats().requests['/markets/{marketId}']).toEqual({ aborted: 1 });
  });

  it('close() during a 429 pause rejects the waiting calls instead of hanging', async () => {
    server = await startRecordingServer(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    client = testClient(server.baseUrl);
    const calls = [client.getMarket('M-1'), client.getMarket('M-2')].map((p) => p.catch((e: unknown) => e));
    await vi.waitFor(() => expect(client.stats().pausedUntilMs).toBeGreaterThan(Date.now() + 20_000), { timeout: 10_000 });
    await client.close();
    for (const r of await Promise.all(calls)) expect(r).toBeInstanceOf(ApiClientClosedError);
  });

  it('close() during a retry backoff rejects at once', async () => {
    server = await startRecordingServer(() => ({ status: 503 }));
    client = testClient(server.baseUrl, { backoff: { baseMs: 10_000, capMs: 10_000 }, random: () => 0.9 });
    const call = client.getMarket('M-1').catch((e: unknown) => e);
    await vi.waitFor(() => expect(client.stats().retries).toBe(1), { timeout: 10_000 });
    const started = Date.now();
    await client.close();
    expect(await call).toBeInstanceOf(ApiClientClosedError);
    expect(Date.now() - started).toBeLessThan(PROMPT_MS);
  });
});

describe('withSignal(signal): calls dropped wherever they wait, the client carrying on', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.abort();
    await server?.close();
  });

  it('a hung upstream: the call in flight rejects at once with the signal reason as its cause; other views still work', async () => {
    // HANG-* never get an answer (well past the test); the rest are answered.
    server = await startRecordingServer((a) => ({ delayMs: a.path.includes('HANG') ? 120_000 : 0, json: wireMarket(requestedId(a.path)) }));
    client = testClient(server.baseUrl, { requestTimeoutMs: 120_000, headersTimeoutMs: 120_000 });
    const stop = new AbortController();
    const view = client.withSignal(stop.signal);
    const hung = [view.getMarket('HANG-1'), view.getOrderBook('HANG-2')];
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(2), { timeout: 10_000 });
    const reason = new Error('SIGTERM');
    stop.abort(reason);
    const { results, ms } = await settledWithin(hung);
    for (const r of results) {
      expect(r).toBeInstanceOf(ApiRequestAbortedError);
      expect((r as Error).cause).toBe(reason);
    }
    expect(ms).toBeLessThan(PROMPT_MS);
    // The client itself, and views without the signal, carry on; the aborted view sends nothing more.
    expect(client.stats().state).toBe('open');
    await expect(client.getMarket('M-1')).resolves.toMatchObject({ ok: true });
    await expect(view.getMarket('M-2')).rejects.toBeInstanceOf(ApiRequestAbortedError);
    expect(server.arrivals.map((a) => requestedId(a.path))).toEqual(['HANG-1', 'HANG-2', 'M-1']);
  });

  it('an exhausted budget: calls queued behind the rate limit reject at once and are never sent', async () => {
    server = await startRecordingServer((a) => ({ json: wireMarket(requestedId(a.path)) }));
    // One request a minute: the first call spends the budget, the others wait in the queue.
    client = testClient(server.baseUrl, { rateLimit: { requests: 1, windowMs: 60_000 } });
    const stop = new AbortController();
    const view = client.withSignal(stop.signal).withPriority(3);
    await expect(view.getMarket('M-0')).resolves.toMatchObject({ ok: true });
    const waiting = Array.from({ length: 5 }, (_, i) => view.getMarket(`M-${i + 1}`));
    await vi.waitFor(() => expect(client.stats().queue.size).toBe(5), { timeout: 10_000 });
    stop.abort();
    const { results, ms } = await settledWithin(waiting);
    for (const r of results) expect(r).toBeInstanceOf(ApiRequestAbortedError);
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(client.stats().queue).toEqual({ size: 0, pending: 0 });
    expect(server.arrivals).toHaveLength(1);
  });

  it('a 429 pause: calls held by the pause reject at once, and nothing is sent when it ends', async () => {
    server = await startRecordingServer((a) =>
      a.index === 0 ? { status: 429, headers: { 'retry-after': '30' } } : { json: wireMarket(requestedId(a.path)) },
    );
    client = testClient(server.baseUrl);
    const stop = new AbortController();
    const view = client.withSignal(stop.signal);
    const first = view.getMarket('M-1');
    await vi.waitFor(() => expect(client.stats().pausedUntilMs).toBeGreaterThan(Date.now() + 20_000), { timeout: 10_000 });
    // The 429'd call waits for its retry; these wait behind the pause.
    const paused = [first, view.getMarket('M-2'), view.getEvent('E-1')];
    stop.abort();
    const { results, ms } = await settledWithin(paused);
    for (const r of results) expect(r).toBeInstanceOf(ApiRequestAbortedError);
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(server.arrivals).toHaveLength(1);
  });

  it('a retry backoff: the sleeping call rejects at once instead of waiting out the backoff', async () => {
    server = await startRecordingServer(() => ({ status: 503 }));
    client = testClient(server.baseUrl, { backoff: { baseMs: 30_000, capMs: 30_000 }, random: () => 0.9 });
    const stop = new AbortController();
    const call = client.withSignal(stop.signal).getMarket('M-1');
    await vi.waitFor(() => expect(client.stats().retries).toBe(1), { timeout: 10_000 });
    stop.abort();
    const { results, ms } = await settledWithin([call]);
    expect(results[0]).toBeInstanceOf(ApiRequestAbortedError);
    expect(ms).toBeLessThan(PROMPT_MS);
    expect(server.arrivals).toHaveLength(1);
  });

  it('a signal aborted before the call: rejected without sending', async () => {
    server = await startRecordingServer((a) => ({ json: wireMarket(requestedId(a.path)) }));
    client = testClient(server.baseUrl);
    const view = client.withSignal(AbortSignal.abort());
    await expect(view.getMarket('M-1')).rejects.toBeInstanceOf(ApiRequestAbortedError);
    const pages = async () => {
      for await (const _page of view.iterateEvents()) void _page;
    };
    await expect(pages()).rejects.toBeInstanceOf(ApiRequestAbortedError);
    expect(server.arrivals).toHaveLength(0);
  });

  it('views compose: a view of a view stops at either signal, and keeps its priority and observer', async () => {
    server = await startRecordingServer((a) => ({ json: wireMarket(requestedId(a.path)) }));
    client = testClient(server.baseUrl);
    const first = new AbortController();
    const second = new AbortController();
    const seen: number[] = [];
    const view = client
      .observedBy((e) => seen.push(e.status as number))
      .withSignal(first.signal)
      .withSignal(second.signal);
    await expect(view.getMarket('M-1')).resolves.toMatchObject({ ok: true });
    expect(seen).toEqual([200]);
    second.abort();
    await expect(view.getMarket('M-2')).rejects.toBeInstanceOf(ApiRequestAbortedError);
    await expect(client.withSignal(first.signal).getMarket('M-3')).resolves.toMatchObject({ ok: true });
    expect(client.withSignal(undefined)).toBe(client);
  });
});
