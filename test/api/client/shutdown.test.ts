import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClientClosedError, type PredictionClient } from '../../../src/api/client/index.js';
import { startRecordingServer, type RecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { wireMarket } from './helpers/wire.js';

describe('close() and abort()', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.abort();
    await server?.close();
  });

  it('close() rejects queued calls, lets the one in flight finish, then sends nothing more', async () => {
    server = await startRecordingServer(() => ({ delayMs: 50, json: wireMarket('M') }));
    client = testClient(server.baseUrl, { concurrency: 1 });
    const calls = Array.from({ length: 5 }, (_, i) => client.getMarket(`M-${i}`).then((r) => r, (e: unknown) => e));
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(1));
    expect(client.stats().queue).toEqual({ size: 4, pending: 1 });
    await client.close();
    const results = await Promise.all(calls);
    expect(results[0]).toMatchObject({ ok: true });
    for (const r of results.slice(1)) expect(r).toBeInstanceOf(ApiClientClosedError);
    await expect(client.getMarket('M-9')).rejects.toBeInstanceOf(ApiClientClosedError);
    expect(server.arrivals).toHaveLength(1);
    expect(client.stats().state).toBe('closed');
  });

  it('abort() also cuts the request in flight', async () => {
    server = await startRecordingServer(() => ({ delayMs: 5000, json: wireMarket('M') }));
    client = testClient(server.baseUrl);
    const call = client.getMarket('M-1').catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(1));
    const started = Date.now();
    await client.abort();
    expect(await call).toBeInstanceOf(ApiClientClosedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('close() during a 429 pause rejects the waiting calls instead of hanging', async () => {
    server = await startRecordingServer(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    client = testClient(server.baseUrl);
    const calls = [client.getMarket('M-1'), client.getMarket('M-2')].map((p) => p.catch((e: unknown) => e));
    await vi.waitFor(() => expect(client.stats().pausedUntilMs).toBeGreaterThan(Date.now() + 20_000));
    await client.close();
    for (const r of await Promise.all(calls)) expect(r).toBeInstanceOf(ApiClientClosedError);
  });

  it('close() during a retry backoff rejects at once', async () => {
    server = await startRecordingServer(() => ({ status: 503 }));
    client = testClient(server.baseUrl, { backoff: { baseMs: 10_000, capMs: 10_000 }, random: () => 0.9 });
    const call = client.getMarket('M-1').catch((e: unknown) => e);
    await vi.waitFor(() => expect(client.stats().retries).toBe(1));
    const started = Date.now();
    await client.close();
    expect(await call).toBeInstanceOf(ApiClientClosedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
