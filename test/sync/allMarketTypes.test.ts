import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { getEventRequest, listEventsRequest } from '../../src/api/endpoints/requests.js';
import { runSyncCycle } from '../../src/sync/runSyncCycle.js';
import { type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { wireEvent, wireMarket } from '../api/client/helpers/wire.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
let server: RecordingServer;
let client: PredictionClient;

// The live service lists a sports event's moneyline market only, unless asked for every type.
const MONEYLINE = wireMarket('GAME-ML', { sportsMarketType: 'moneyline' });
const SPREAD = wireMarket('GAME-SPREAD', { sportsMarketType: 'spread' });

beforeAll(async () => {
  server = await startRecordingServer((a) => {
    const path = a.path.replace('/prediction/v1', '');
    const all = a.query.get('includeAllMarkets') === 'true';
    const event = wireEvent('GAME', { category: 'sports', markets: all ? [MONEYLINE, SPREAD] : [MONEYLINE] });
    if (path === '/events') return { json: { data: [event], pagination: { start: 0, end: 1, total: 1, hasNext: false } } };
    if (path.startsWith('/orderbook/')) return { json: null };
    return { status: 404, json: { message: 'not found' } };
  });
  client = createPredictionClient({ baseUrl: server.baseUrl, allowKeyless: true, rateLimit: { requests: 1_000_000 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('sports market types', () => {
  it('the crawl asks for every market type, so spread and totals markets are stored beside the moneyline', async () => {
    await runSyncCycle(db.sql, client, { providers: ['polymarket'], categories: ['all'], maxOrderBooks: null });
    const listing = server.arrivals.find((a) => a.path.endsWith('/events'));
    expect(listing?.query.get('includeAllMarkets')).toBe('true');
    const markets = await db.sql<{ market_id: string }[]>`select market_id from prediction.markets order by 1`;
    expect(markets.map((m) => m.market_id)).toEqual(['GAME-ML', 'GAME-SPREAD']);
  });

  it('the requests carry includeAllMarkets, and the filter takes upcoming (OpenAPI 2026-06-18)', () => {
    expect(listEventsRequest({ includeAllMarkets: true, filter: 'upcoming' }).query).toBe('includeAllMarkets=true&filter=upcoming');
    expect(getEventRequest('E-1', { includeMarkets: true, includeAllMarkets: true }).query).toBe(
      'includeMarkets=true&includeAllMarkets=true',
    );
  });
});
