import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ApiRequestInvalidError, type PredictionClient } from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';

/** Every bound of the spec (sections 4 and 8), violated: a clear error and nothing sent. */
const violations: [string, string, (c: PredictionClient) => Promise<unknown>][] = [
  ['empty eventId (getEvent)', 'eventId', (c) => c.getEvent('')],
  ['empty eventId (markets)', 'eventId', (c) => c.listEventMarkets('')],
  ['empty marketId (market)', 'marketId', (c) => c.getMarket('')],
  ['empty marketId (orderbook)', 'marketId', (c) => c.getOrderBook('')],
  ['empty pubkey', 'pubkey', (c) => c.getSuggestedEvents('')],
  ['empty search query', 'query', (c) => c.searchEvents('')],
  ['search query of 201 characters', 'query', (c) => c.searchEvents('x'.repeat(201))],
  ['search limit 0', 'limit', (c) => c.searchEvents('btc', { limit: 0 })],
  ['search limit 21', 'limit', (c) => c.searchEvents('btc', { limit: 21 })],
  ['search limit 2.5', 'limit', (c) => c.searchEvents('btc', { limit: 2.5 })],
  ['negative start', 'start', (c) => c.listEvents({ start: -1 })],
  ['negative end', 'end', (c) => c.listEvents({ end: -20 })],
  ['non-integer start', 'start', (c) => c.listEvents({ start: 1.5 })],
  ['NaN end', 'end', (c) => c.listEvents({ end: Number.NaN })],
  ['negative start (markets)', 'start', (c) => c.listEventMarkets('E-1', { start: -1 })],
  ['non-integer end (markets)', 'end', (c) => c.listEventMarkets('E-1', { end: 0.5 })],
  ['provider that is no name', 'provider', (c) => c.listEvents({ provider: 'poly market' })],
  ['provider that is no name (search)', 'provider', (c) => c.searchEvents('btc', { provider: 'KALSHI' })],
  ['provider that is no name (suggested)', 'provider', (c) => c.getSuggestedEvents('pk', { provider: '' })],
  ['unknown category', 'category', (c) => c.listEvents({ category: 'weather' as never })],
  ['unknown sortBy', 'sortBy', (c) => c.listEvents({ sortBy: 'price' as never })],
  ['unknown sortDirection', 'sortDirection', (c) => c.listEvents({ sortDirection: 'up' as never })],
  ['unknown filter', 'filter', (c) => c.listEvents({ filter: 'hot' as never })],
  ['non-boolean includeMarkets', 'includeMarkets', (c) => c.getEvent('E-1', { includeMarkets: 'yes' as never })],
  ['iterator with a bad filter', 'filter', (c) => c.iterateEvents({ filter: 'hot' as never }).next()],
  ['iterator with a zero page size', 'pageSize', (c) => c.iterateEventMarkets('E-1', { pageSize: 0 }).next()],
];

describe('spec bounds are checked before sending', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  beforeAll(async () => {
    server = await startRecordingServer(() => ({ status: 500 }));
    client = testClient(server.baseUrl);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it.each(violations)('%s', async (_label, parameter, call) => {
    const error = await Promise.resolve()
      .then(() => call(client))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestInvalidError);
    expect((error as ApiRequestInvalidError).parameter).toBe(parameter);
    expect((error as Error).message).toContain(parameter);
    expect(server.arrivals).toHaveLength(0);
  });

  it('boundary values are accepted', async () => {
    const ok = await startRecordingServer(() => ({ json: { data: [] } }));
    const c = testClient(ok.baseUrl);
    try {
      await c.searchEvents('x'.repeat(200), { limit: 20 });
      await c.searchEvents('é', { limit: 1 });
      // 200 characters even though 400 UTF-16 code units.
      await c.searchEvents('😀'.repeat(200));
      expect(ok.arrivals).toHaveLength(3);
    } finally {
      await c.close();
      await ok.close();
    }
  });

  it('names the rule in the message', async () => {
    await expect(client.searchEvents('btc', { limit: 25 })).rejects.toThrow('limit must be an integer from 1 to 20, got 25');
    await expect(client.searchEvents('y'.repeat(300))).rejects.toThrow(/query must be 1 to 200 characters long \(was 300\)/);
    await expect(client.listEvents({ provider: 'x&y' })).rejects.toThrow('provider must be a provider name such as kalshi or polymarket');
  });
});
