import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiKeyRejectedError, type PredictionClient } from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { wireMarket } from './helpers/wire.js';

describe('withPriority views', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it('share one queue, in which higher priorities go first', async () => {
    server = await startRecordingServer((a) => ({ delayMs: a.index === 0 ? 50 : 0, json: wireMarket('M') }));
    client = testClient(server.baseUrl, { concurrency: 1 });
    const high = client.withPriority(30);
    const first = client.getMarket('FIRST');
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(1), { timeout: 10_000 });
    // Queued behind FIRST: low ones before high ones.
    const calls = [client.getMarket('LOW-1'), client.getMarket('LOW-2'), high.getMarket('HIGH-1'), high.getMarket('HIGH-2')];
    await Promise.all([first, ...calls]);
    expect(server.arrivals.map((a) => a.path.split('/').pop())).toEqual(['FIRST', 'HIGH-1', 'HIGH-2', 'LOW-1', 'LOW-2']);
    expect(high.stats()).toEqual(client.stats());
  });

  it('share the failure state', async () => {
    server = await startRecordingServer(() => ({ status: 401 }));
    client = testClient(server.baseUrl);
    await expect(client.withPriority(5).getMarket('M-1')).rejects.toBeInstanceOf(ApiKeyRejectedError);
    await expect(client.getMarket('M-2')).rejects.toBeInstanceOf(ApiKeyRejectedError);
    expect(server.arrivals).toHaveLength(1);
  });

  it('rejects a priority that is not a finite number', () => {
    client = testClient('http://127.0.0.1:9/prediction/v1');
    expect(() => client.withPriority(Number.NaN)).toThrow(RangeError);
  });
});
