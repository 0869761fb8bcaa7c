import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { runSyncCycle } from '../../src/sync/runSyncCycle.js';
import { type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { wireEvent, wireMarket } from '../api/client/helpers/wire.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
let server: RecordingServer;
let client: PredictionClient;

beforeAll(async () => {
  // EMPTY is listed with `markets: []`, and has gone by the time its markets are asked for.
  const listed = [
    wireEvent('EMPTY', { markets: [] }),
    wireEvent('FULL', { markets: [wireMarket('M-1')] }),
    wireEvent('LATER', { markets: [] }),
  ];
  server = await startRecordingServer((a) => {
    const path = a.path.replace('/prediction/v1', '');
    if (path === '/events')
      return { json: { data: listed, pagination: { start: 0, end: listed.length, total: listed.length, hasNext: false } } };
    if (path === '/events/LATER/markets')
      return { json: { data: [wireMarket('M-2')], pagination: { start: 0, end: 1, total: 1, hasNext: false } } };
    if (path.startsWith('/orderbook/')) return { json: null };
    return { status: 404, json: { code: 404, message: 'Event not found' } };
  });
  client = createPredictionClient({ baseUrl: server.baseUrl, allowKeyless: true, rateLimit: { requests: 1_000_000 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('an event listed without markets whose market list then answers 404', () => {
  it('is counted as gone; the sync goes on to the next event and the other phases', async () => {
    const result = await runSyncCycle(db.sql, client, { providers: ['polymarket'], categories: ['all'], maxOrderBooks: null });
    expect(result.status).toBe('succeeded');
    expect(result.notFound).toBe(1);
    expect(result.totals.requestsByStatus['/events/{eventId}/markets']).toEqual({ 200: 1, 404: 1 });
    const markets = await db.sql`select market_id from prediction.markets order by market_id`;
    expect(markets.map((m) => m.market_id)).toEqual(['M-1', 'M-2']);
    // The order-book sweep ran after it.
    expect(server.arrivals.filter((a) => a.path.includes('/orderbook/'))).toHaveLength(2);
  });
});
