import { afterEach, describe, expect, it } from 'vitest';

import {
  ApiBadRequestError,
  ApiInvalidJsonError,
  ApiNetworkError,
  ApiResponseShapeError,
  ApiResponseTooLargeError,
  ApiServerError,
  ApiTimeoutError,
  ApiUnexpectedStatusError,
  type PredictionClient,
  type RequestEvent,
} from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { wireMarket } from './helpers/wire.js';

describe('retries and failures', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it('retries 5xx (502 included) with backoff, then succeeds', async () => {
    const statuses = [500, 502, 503];
    server = await startRecordingServer((a) => (a.index < statuses.length ? { status: statuses[a.index]! } : { json: wireMarket('M-1') }));
    const events: RequestEvent[] = [];
    client = testClient(server.baseUrl, { onRequest: (e) => events.push(e) });
    const market = await client.getMarket('M-1');
    expect(market.ok).toBe(true);
    expect(server.arrivals).toHaveLength(4);
    expect(events.map((e) => [e.status, e.attempt, e.endpoint])).toEqual([
      [500, 1, '/markets/{marketId}'],
      [502, 2, '/markets/{marketId}'],
      [503, 3, '/markets/{marketId}'],
      [200, 4, '/markets/{marketId}'],
    ]);
    const stats = client.stats();
    expect(stats.retries).toBe(3);
    expect(stats.requests['/markets/{marketId}']).toEqual({ '500': 1, '502': 1, '503': 1, '200': 1 });
  });

  it('gives up after maxAttempts with the last ApiServerError', async () => {
    server = await startRecordingServer(() => ({ status: 502, raw: '<html>Bad gateway</html>' }));
    client = testClient(server.baseUrl, { maxAttempts: 3 });
    const error = await client.getOrderBook('M-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiServerError);
    expect((error as ApiServerError).status).toBe(502);
    expect((error as Error).message).toContain('<html>Bad gateway</html>');
    expect(server.arrivals).toHaveLength(3);
  });

  it('retries network errors (connection cut without an answer)', async () => {
    server = await startRecordingServer((a) => (a.index < 2 ? { destroy: true } : { json: wireMarket('M-1') }));
    client = testClient(server.baseUrl);
    await expect(client.getMarket('M-1')).resolves.toMatchObject({ ok: true });
    expect(client.stats().requests['/markets/{marketId}']).toEqual({ network_error: 2, '200': 1 });
  });

  it('a connection refused is an ApiNetworkError after every attempt', async () => {
    server = await startRecordingServer(() => ({}));
    const { baseUrl } = server;
    await server.close();
    client = testClient(baseUrl, { maxAttempts: 2 });
    const error = await client.getMarket('M-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(client.stats().requests['/markets/{marketId}']).toEqual({ network_error: 2 });
  });

  it('the overall deadline cuts a body that trickles in (undici restarts bodyTimeout per chunk)', async () => {
    // A chunk every 40 ms: well within bodyTimeoutMs each time, 400 ms in all.
    server = await startRecordingServer(() => ({ trickleMs: 40, json: wireMarket('M-1') }));
    client = testClient(server.baseUrl, { requestTimeoutMs: 100, bodyTimeoutMs: 1000, maxAttempts: 2 });
    const error = await client.getMarket('M-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as Error).message).toContain('No complete response within 100 ms');
    expect(server.arrivals).toHaveLength(2);
  });

  it('400 and other 4xx are not retried', async () => {
    server = await startRecordingServer((a) =>
      a.url.includes('BAD') ? { status: 400, json: { type: 'invalid_request', message: 'bad id' } } : { status: 410 },
    );
    client = testClient(server.baseUrl);
    await expect(client.getMarket('BAD')).rejects.toBeInstanceOf(ApiBadRequestError);
    await expect(client.getMarket('BAD')).rejects.toThrow('invalid_request: bad id');
    await expect(client.getMarket('OLD')).rejects.toBeInstanceOf(ApiUnexpectedStatusError);
    expect(server.arrivals).toHaveLength(3);
  });

  it('a body over the size cap fails without a retry', async () => {
    server = await startRecordingServer(() => ({ json: { ...wireMarket('M-1'), description: 'x'.repeat(5000) } }));
    client = testClient(server.baseUrl, { maxResponseBytes: 1024 });
    await expect(client.getMarket('M-1')).rejects.toThrow(/over the 1024-byte cap \(declared \d+ bytes\)/);
    expect(server.arrivals).toHaveLength(1);
  });

  it('a body over the cap without content-length (chunked) fails too', async () => {
    server = await startRecordingServer(() => ({ trickleMs: 1, json: { pad: 'y'.repeat(200_000) } }));
    client = testClient(server.baseUrl, { maxResponseBytes: 64 * 1024 });
    const error = await client.getMarket('M-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseTooLargeError);
    expect((error as Error).message).toContain('while reading');
    expect(server.arrivals).toHaveLength(1);
  });

  it('a 200 whose body is not JSON is an ApiInvalidJsonError', async () => {
    server = await startRecordingServer(() => ({ raw: '<html>maintenance</html>' }));
    client = testClient(server.baseUrl);
    const error = await client.getMarket('M-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiInvalidJsonError);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    expect(server.arrivals).toHaveLength(1);
  });

  it('an unusable envelope is an ApiResponseShapeError naming the request, with the parser error as cause', async () => {
    server = await startRecordingServer(() => ({ json: { data: 'nope' } }));
    client = testClient(server.baseUrl);
    const error = await client.listEvents({ start: 0, end: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseShapeError);
    expect((error as Error).message).toContain('GET /prediction/v1/events?start=0&end=20');
    expect((error as Error).cause).toMatchObject({ name: 'ResponseShapeError' });
  });

  it('a single bad record is a rejection, not an error', async () => {
    server = await startRecordingServer(() => ({ json: wireMarket('M-1', { settlementTime: 'tomorrow' }) }));
    client = testClient(server.baseUrl);
    const market = await client.getMarket('M-1');
    expect(market.ok).toBe(false);
    if (!market.ok) expect(market.rejection.entityId).toBe('M-1');
  });
});
