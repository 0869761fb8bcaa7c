import { afterEach, describe, expect, it } from 'vitest';

import { ApiNotFoundError, type PredictionClient } from '../../../src/api/client/index.js';
import { type Arrival, type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { TEST_KEY, testClient } from './helpers/testClient.js';
import { wireEvent, wireMarket, wireOrderBook } from './helpers/wire.js';

const BASE = '/prediction/v1';

/** Answers every endpoint of the spec with well-formed bodies; ids starting with `GONE` are 404s. */
function specServer(arrival: Arrival) {
  const p = arrival.path.slice(BASE.length);
  if (p.includes('GONE')) return { status: 404, json: { code: 404, message: 'not found' } };
  const page = { start: 0, end: 2, total: 2, hasNext: false };
  if (p === '/events') return { json: { data: [wireEvent('POLY-1'), wireEvent('POLY-2')], pagination: page } };
  if (p === '/events/search') return { json: { data: [wireEvent('POLY-3')] } };
  if (p.startsWith('/events/suggested/')) return { json: { data: [wireEvent('POLY-4')] } };
  let m = /^\/events\/([^/]+)\/markets$/.exec(p);
  if (m) return { json: { data: [wireMarket('M-1'), wireMarket('M-2')], pagination: page } };
  m = /^\/events\/([^/]+)$/.exec(p);
  if (m) return { json: wireEvent(decodeURIComponent(m[1]!), { markets: [wireMarket('M-9')] }) };
  m = /^\/markets\/([^/]+)$/.exec(p);
  if (m) return { json: wireMarket(decodeURIComponent(m[1]!)) };
  if (p === '/orderbook/EMPTY') return { json: null };
  if (p.startsWith('/orderbook/')) return { json: wireOrderBook() };
  return { status: 500, json: { message: `unrouted ${p}` } };
}

describe('endpoints over HTTP', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  async function setup() {
    server = await startRecordingServer(specServer);
    client = testClient(server.baseUrl);
  }

  it('listEvents sends the filters and returns checked events with pagination', async () => {
    await setup();
    const result = await client.listEvents({
      provider: 'kalshi',
      category: 'crypto',
      start: 0,
      end: 20,
      includeMarkets: true,
      sortBy: 'volume',
      sortDirection: 'desc',
      filter: 'live',
      subcategory: 'bitcoin',
    });
    expect(result.events.map((e) => e.ok && e.value.eventId)).toEqual(['POLY-1', 'POLY-2']);
    expect(result.events[0]!.ok && result.events[0]!.value.provider).toBe('kalshi');
    expect(result.pagination).toEqual({ start: 0, end: 2, total: 2, hasNext: false });
    const [arrival] = server.arrivals;
    expect(arrival!.method).toBe('GET');
    expect(arrival!.path).toBe(`${BASE}/events`);
    expect(Object.fromEntries(arrival!.query)).toEqual({
      provider: 'kalshi',
      category: 'crypto',
      start: '0',
      end: '20',
      includeMarkets: 'true',
      sortBy: 'volume',
      sortDirection: 'desc',
      filter: 'live',
      subcategory: 'bitcoin',
    });
    expect(arrival!.headers['x-api-key']).toBe(TEST_KEY);
    expect(client.stats().requests).toEqual({ '/events': { '200': 1 } });
  });

  it('getEvent URL-encodes the id and returns the event with its markets', async () => {
    await setup();
    const event = await client.getEvent('A/B C?', { includeMarkets: true });
    expect(server.arrivals[0]!.url).toBe(`${BASE}/events/A%2FB%20C%3F?includeMarkets=true`);
    expect(event.ok).toBe(true);
    if (event.ok) {
      expect(event.value.eventId).toBe('A/B C?');
      expect(event.value.markets?.map((m) => m.marketId)).toEqual(['M-9']);
    }
    expect(client.stats().requests).toEqual({ '/events/{eventId}': { '200': 1 } });
  });

  it('an id made of dots stays one path segment', async () => {
    server = await startRecordingServer(() => ({ json: wireMarket('..') }));
    client = testClient(server.baseUrl);
    await client.getMarket('..');
    expect(server.arrivals[0]!.url).toBe(`${BASE}/markets/%2E%2E`);
  });

  it('getSuggestedEvents, searchEvents, listEventMarkets, getMarket, getOrderBook', async () => {
    await setup();
    const suggested = await client.getSuggestedEvents('PUBKEY1', { provider: 'polymarket' });
    expect(suggested.events.map((e) => e.ok && e.value.eventId)).toEqual(['POLY-4']);
    const found = await client.searchEvents('bitcoin & co', { limit: 5 });
    expect(found.events).toHaveLength(1);
    const markets = await client.listEventMarkets('POLY-1', { start: 0, end: 20 });
    expect(markets.markets.map((m) => m.ok && m.value.eventId)).toEqual(['POLY-1', 'POLY-1']);
    const market = await client.getMarket('M-7');
    expect(market.ok && market.value.marketId).toBe('M-7');
    const book = await client.getOrderBook('M-7');
    expect(book.ok && book.value.yes.map((l) => l.priceCents)).toEqual(['65', '64']);
    const empty = await client.getOrderBook('EMPTY');
    expect(empty.ok && empty.value.isNull).toBe(true);

    expect(server.arrivals.map((a) => a.url)).toEqual([
      `${BASE}/events/suggested/PUBKEY1?provider=polymarket`,
      `${BASE}/events/search?query=bitcoin+%26+co&limit=5`,
      `${BASE}/events/POLY-1/markets?start=0&end=20`,
      `${BASE}/markets/M-7`,
      `${BASE}/orderbook/M-7`,
      `${BASE}/orderbook/EMPTY`,
    ]);
    expect(Object.keys(client.stats().requests).sort()).toEqual([
      '/events/search',
      '/events/suggested/{pubkey}',
      '/events/{eventId}/markets',
      '/markets/{marketId}',
      '/orderbook/{marketId}',
    ]);
  });

  it.each([
    ['getEvent', (c: PredictionClient) => c.getEvent('GONE-1')],
    ['getSuggestedEvents', (c: PredictionClient) => c.getSuggestedEvents('GONE-1')],
    ['searchEvents', (c: PredictionClient) => c.searchEvents('GONE')],
    ['listEventMarkets', (c: PredictionClient) => c.listEventMarkets('GONE-1')],
    ['getMarket', (c: PredictionClient) => c.getMarket('GONE-1')],
    ['getOrderBook', (c: PredictionClient) => c.getOrderBook('GONE-1')],
  ])('%s: 404 is an ApiNotFoundError, not retried', async (_name, call) => {
    server = await startRecordingServer((a) => (a.url.includes('GONE') ? { status: 404, json: { message: 'no such id' } } : specServer(a)));
    client = testClient(server.baseUrl);
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNotFoundError);
    expect((error as ApiNotFoundError).status).toBe(404);
    expect((error as Error).message).toContain('no such id');
    expect((error as Error).message).toMatch(/\(GET \/prediction\/v1\/.*GONE/);
    expect(server.arrivals).toHaveLength(1);
  });

  it('listEvents: 404 too', async () => {
    server = await startRecordingServer(() => ({ status: 404, json: { message: 'nope' } }));
    client = testClient(server.baseUrl);
    await expect(client.listEvents()).rejects.toBeInstanceOf(ApiNotFoundError);
    expect(client.stats().requests).toEqual({ '/events': { '404': 1 } });
  });
});
