import { afterEach, describe, expect, it } from 'vitest';

import { ApiKeyMissingError, ApiKeyRejectedError, createPredictionClient, type PredictionClient } from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { wireMarket } from './helpers/wire.js';

describe('API key handling', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it.each([401, 403])('%d fails fast: queued calls reject with it, later calls send nothing', async (status) => {
    server = await startRecordingServer(() => ({ delayMs: 20, status, json: { code: status, message: 'Invalid API key' } }));
    // One at a time, so that the rest are still queued when the first answer comes back.
    client = testClient(server.baseUrl, { concurrency: 1 });
    const calls = Array.from({ length: 10 }, (_, i) => client.getMarket(`M-${i}`).catch((e: unknown) => e));
    const errors = await Promise.all(calls);
    for (const error of errors) expect(error).toBeInstanceOf(ApiKeyRejectedError);
    expect((errors[0] as Error).message).toMatch(new RegExp(`^The API key was rejected \\(${status}\\)`));
    expect(server.arrivals).toHaveLength(1);

    await expect(client.listEvents()).rejects.toBeInstanceOf(ApiKeyRejectedError);
    await expect(client.getOrderBook('M-1')).rejects.toBeInstanceOf(ApiKeyRejectedError);
    expect(server.arrivals).toHaveLength(1);
    expect(client.stats().state).toBe('failed');
  });

  it('a 401 also aborts requests already in flight and stops retries waiting on backoff', async () => {
    server = await startRecordingServer((a) => {
      if (a.url.endsWith('/SLOW')) return { delayMs: 20_000, json: wireMarket('SLOW') };
      if (a.url.endsWith('/FLAKY')) return { status: 503 };
      return { delayMs: 30, status: 401 };
    });
    client = testClient(server.baseUrl, { backoff: { baseMs: 20_000, capMs: 20_000 }, random: () => 0.99 });
    const slow = client.getMarket('SLOW').catch((e: unknown) => e);
    const flaky = client.getMarket('FLAKY').catch((e: unknown) => e);
    const started = Date.now();
    await expect(client.getMarket('KEY')).rejects.toBeInstanceOf(ApiKeyRejectedError);
    expect(await slow).toBeInstanceOf(ApiKeyRejectedError);
    expect(await flaky).toBeInstanceOf(ApiKeyRejectedError);
    // Neither the 20 s answer nor the ~20 s backoff was waited for (the bound leaves a loaded machine room).
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses to build a client without a key unless allowKeyless', () => {
    expect(() => createPredictionClient({ baseUrl: 'https://api.example.test/prediction/v1' })).toThrow(ApiKeyMissingError);
    expect(() => createPredictionClient({ baseUrl: 'https://api.example.test/prediction/v1', apiKey: '' })).toThrow(/PREDICTION_API_KEY/);
    expect(() => createPredictionClient({ baseUrl: 'https://api.example.test/prediction/v1' })).toThrow(/simulator/);
  });

  it('allowKeyless sends no x-api-key header', async () => {
    server = await startRecordingServer(() => ({ json: wireMarket('M-1') }));
    client = createPredictionClient({ baseUrl: server.baseUrl, allowKeyless: true });
    await client.getMarket('M-1');
    expect(server.arrivals[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('sends the key as the x-api-key header and nowhere else in the request', async () => {
    server = await startRecordingServer(() => ({ json: wireMarket('M-1') }));
    client = testClient(server.baseUrl);
    await client.getMarket('M-1');
    const [arrival] = server.arrivals;
    expect(arrival!.headers['x-api-key']).toBe('sk-test-Zq9v7XkP3mN8wR2t');
    expect(arrival!.url).not.toContain('sk-test');
  });
});
