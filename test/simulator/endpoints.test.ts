import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { gatewayErrorBodySchema, serviceErrorBodySchema } from '../../src/wire/errorBodies.js';
import { exactPaginationSchema } from '../../src/wire/pagination.js';
import { specOrderBookSchema } from '../../src/wire/specShapes.js';
import { crawl, get } from './http.js';
import { simulatedSpecEventSchema, simulatedSpecMarketSchema } from './wireSchemas.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({
    shape: 'spec',
    seed: 1,
    markets: 400,
    apiKey: 'test-key',
    rateLimit: { requests: 100_000 },
    maxPageSize: 20,
  });
});
afterAll(() => sim.stop());

const listSchema = z.strictObject({ data: z.array(simulatedSpecEventSchema), pagination: exactPaginationSchema });

describe('endpoint shapes', () => {
  it('GET /events: spec shape, polymarket by default, a full page of maxPageSize, no markets by default', async () => {
    const r = await get(sim, '/events');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const body = listSchema.parse(r.body);
    expect(body.data).toHaveLength(20);
    expect(body.pagination).toMatchObject({ start: 0, end: 20, hasNext: true });
    const expected = sim.world.listEvents({ provider: 'polymarket', category: 'all' });
    expect(body.pagination.total).toBe(expected.length);
    expect(body.data.map((e) => e.eventId)).toEqual(expected.slice(0, 20).map((e) => e.eventId));
    for (const e of body.data) expect(e).not.toHaveProperty('markets');
  });

  it('GET /events?includeMarkets=true embeds the markets; volume sort is descending by default', async () => {
    const r = await get(sim, '/events?provider=kalshi&includeMarkets=true&sortBy=volume');
    const body = listSchema.parse(r.body);
    for (const e of body.data) {
      expect(e.markets!.map((m) => m.marketId)).toEqual(sim.world.event(e.eventId)!.marketIds);
      expect(sim.world.event(e.eventId)!.provider).toBe('kalshi');
    }
    const volumes = body.data.map((e) => Number(e.volumeUsd));
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
  });

  it('GET /events filters by category, subcategory and filter; beginAt sorts ascending by default', async () => {
    const sports = listSchema.parse((await get(sim, '/events?category=sports&sortBy=beginAt')).body);
    for (const e of sports.data) expect(e.category).toBe('sports');
    const begins = sports.data.filter((e) => e.beginAt !== null).map((e) => Number(e.beginAt));
    expect(begins).toEqual([...begins].sort((a, b) => a - b));
    const sub = sports.data[0]!.subcategory;
    const bySub = listSchema.parse((await get(sim, `/events?category=all&subcategory=${sub.toUpperCase()}`)).body);
    for (const e of bySub.data) expect(e.subcategory).toBe(sub);
    const live = listSchema.parse((await get(sim, '/events?filter=live')).body);
    for (const e of live.data) expect(e.isLive).toBe(true);
    const trending = listSchema.parse((await get(sim, '/events?filter=trending')).body);
    for (const e of trending.data) expect(e.isTrending).toBe(true);
  });

  it('GET /events/{id}: a bare event, with markets on request', async () => {
    const id = sim.world.listEvents({ provider: 'kalshi', category: 'all' })[0]!.eventId;
    const r = await get(sim, `/events/${id}`);
    expect(simulatedSpecEventSchema.parse(r.body)).toEqual(sim.world.eventJson(id));
    expect(r.body).not.toHaveProperty('markets');
    const withMarkets = await get(sim, `/events/${id}?includeMarkets=true`);
    expect(withMarkets.body.markets).toHaveLength(sim.world.event(id)!.marketIds.length);
  });

  it('GET /events/{id}/markets paginates the event markets', async () => {
    const eventId = sim.world.addEvent({ provider: 'polymarket', category: 'economics', marketCount: 45 });
    const { items, pages } = await crawl(sim, `/events/${eventId}/markets`, 100);
    expect(pages.map((p) => p.body.data.length)).toEqual([20, 20, 5]);
    expect(items.map((m) => simulatedSpecMarketSchema.parse(m).marketId)).toEqual(sim.world.event(eventId)!.marketIds);
  });

  it('GET /markets/{id} and /orderbook/{id} (null for closed markets)', async () => {
    const open = sim.world.markets().find((m) => m.status === 'open' && m.hasBook)!;
    expect(simulatedSpecMarketSchema.parse((await get(sim, `/markets/${open.marketId}`)).body)).toEqual(
      sim.world.marketJson(open.marketId),
    );
    const book = specOrderBookSchema.parse((await get(sim, `/orderbook/${open.marketId}`)).body);
    expect(book).toEqual(sim.world.orderBookJson(open.marketId));
    const closed = sim.world.markets().find((m) => m.status === 'closed')!;
    const r = await get(sim, `/orderbook/${closed.marketId}`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('null');
  });

  it('GET /events/search matches titles case-insensitively, within the limit', async () => {
    const target = sim.world.listEvents({ provider: 'kalshi', category: 'all' })[0]!;
    const word = target.title.split(' ')[0]!.toUpperCase();
    const r = await get(sim, `/events/search?provider=kalshi&query=${encodeURIComponent(word)}&limit=20`);
    const data = z.strictObject({ data: z.array(simulatedSpecEventSchema) }).parse(r.body).data;
    expect(data.map((e) => e.eventId)).toContain(target.eventId);
    for (const e of data) expect(e.metadata!.title.toLowerCase()).toContain(word.toLowerCase());
    const one = await get(sim, `/events/search?provider=kalshi&query=${encodeURIComponent(word)}&limit=1`);
    expect(one.body.data).toHaveLength(1);
  });

  it('GET /events/suggested/{pubkey} is deterministic per key and marks events recommended', async () => {
    const a = await get(sim, '/events/suggested/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
    const again = await get(sim, '/events/suggested/9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
    const other = await get(sim, '/events/suggested/another-key');
    const data = z.strictObject({ data: z.array(simulatedSpecEventSchema) }).parse(a.body).data;
    expect(data.length).toBeGreaterThanOrEqual(3);
    for (const e of data) expect(e).toMatchObject({ isRecommended: true, isActive: true });
    expect(again.body).toEqual(a.body);
    expect(other.body).not.toEqual(a.body);
  });
});

describe('pagination', () => {
  it('returns each listed event exactly once when asking for more than the page cap', async () => {
    for (const provider of ['kalshi', 'polymarket'] as const) {
      const { items, pages } = await crawl(sim, `/events?provider=${provider}&sortBy=beginAt`, 50);
      for (const p of pages) expect(p.body.data.length).toBeLessThanOrEqual(20);
      const ids = items.map((e) => e.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(sim.world.listEvents({ provider, category: 'all', sortBy: 'beginAt' }).map((e) => e.eventId));
    }
  });

  it('follows the half-open convention and handles edge ranges', async () => {
    const total = sim.world.listEvents({ provider: 'polymarket', category: 'all' }).length;
    expect((await get(sim, '/events?start=3&end=5')).body.pagination).toEqual({ start: 3, end: 5, total, hasNext: true });
    expect((await get(sim, '/events?start=3&end=5')).body.data).toHaveLength(2);
    expect((await get(sim, '/events?end=7')).body.pagination).toMatchObject({ start: 0, end: 7 });
    expect((await get(sim, `/events?start=${total - 1}`)).body.pagination).toEqual({ start: total - 1, end: total, total, hasNext: false });
    expect((await get(sim, `/events?start=${total + 10}`)).body).toEqual({
      data: [],
      pagination: { start: total + 10, end: total + 10, total, hasNext: false },
    });
    expect((await get(sim, '/events?start=5&end=2')).body).toMatchObject({ data: [], pagination: { start: 5, end: 5 } });
  });

  it('volume order follows current volume, so a volume crawl can see an event twice', async () => {
    const first = (await get(sim, '/events?sortBy=volume&start=0&end=20')).body;
    const mover = first.data[0].eventId;
    sim.world.setEventVolume(mover, 0);
    const rest = await crawl(sim, '/events?sortBy=volume', 20, first.pagination.end);
    const seen = [...first.data, ...rest.items].map((e) => e.eventId);
    expect(seen.filter((id) => id === mover)).toHaveLength(2);
    // ...while a beginAt crawl is unaffected by volume.
    const stable = await crawl(sim, '/events?sortBy=beginAt', 20);
    expect(stable.items.filter((e) => e.eventId === mover)).toHaveLength(1);
  });

  it('applies a max page size changed at runtime', async () => {
    sim.setMaxPageSize(5);
    try {
      expect((await get(sim, '/events?start=0&end=100')).body.data).toHaveLength(5);
    } finally {
      sim.setMaxPageSize(20);
    }
  });
});

describe('errors', () => {
  it.each([
    ['/events?start=-1', 'start'],
    ['/events?end=-5', 'end'],
    ['/events?start=abc', 'start'],
    ['/events?provider=bisonfi', 'provider'],
    ['/events?category=weather', 'category'],
    ['/events?sortBy=name', 'sortBy'],
    ['/events?sortDirection=up', 'sortDirection'],
    ['/events?filter=hot', 'filter'],
    ['/events?includeMarkets=yes', 'includeMarkets'],
    ['/events/search', 'query'],
    ['/events/search?query=', 'query'],
    [`/events/search?query=${'a'.repeat(201)}`, 'query'],
    ['/events/search?query=btc&limit=0', 'limit'],
    ['/events/search?query=btc&limit=21', 'limit'],
    ['/events/', 'eventId'],
    ['/events//markets', 'eventId'],
    ['/events/suggested/', 'pubkey'],
    ['/markets/', 'marketId'],
    ['/orderbook/', 'marketId'],
    ['/events/POLY-1/markets?start=-1', 'start'],
  ])('400 for %s', async (path, param) => {
    const r = await get(sim, path);
    expect(r.status).toBe(400);
    expect(serviceErrorBodySchema.parse(r.body)).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('accepts the bounds themselves', async () => {
    expect((await get(sim, `/events/search?query=${'a'.repeat(200)}&limit=20`)).status).toBe(200);
    expect((await get(sim, '/events/search?query=a&limit=1')).status).toBe(200);
    expect((await get(sim, '/events?start=0&end=0&category=all')).status).toBe(200);
  });

  it.each(['/events/NOPE-1', '/events/NOPE-1/markets', '/markets/NOPE-1', '/orderbook/NOPE-1', '/nothing/here', '/events/x/y/z'])(
    '404 for %s',
    async (path) => {
      const r = await get(sim, path);
      expect(r.status).toBe(404);
      expect(serviceErrorBodySchema.parse(r.body).type).toBe('invalid_request_error');
    },
  );

  it('reads an error body as the OpenAPI publishes it, doc_url included', () => {
    const published = { type: 'invalid_request_error', message: 'Market not found', request_id: 'req-1', doc_url: 'https://dev.jup.ag/x' };
    expect(serviceErrorBodySchema.parse(published)).toEqual(published);
  });

  it('404 outside the base path (gateway shape) and 405 for other methods', async () => {
    const r = await get(sim, '/../../other');
    expect(r.status).toBe(404);
    gatewayErrorBodySchema.parse(r.body);
    const post = await fetch(`${sim.url}/events`, { method: 'POST', headers: { 'x-api-key': 'test-key' } });
    expect(post.status).toBe(405);
    serviceErrorBodySchema.parse(await post.json());
  });

  it('keeps resolved events readable by id while the listing drops them', async () => {
    const event = sim.world.listEvents({ provider: 'polymarket', category: 'all' })[0]!;
    sim.world.resolveEvent(event.eventId, event.marketIds[0]!);
    const { items } = await crawl(sim, '/events?sortBy=beginAt', 20);
    expect(items.map((e) => e.eventId)).not.toContain(event.eventId);
    const r = await get(sim, `/events/${event.eventId}`);
    expect(r.body).toMatchObject({ isActive: false, winner: event.marketIds[0] });
    expect((await get(sim, `/events/${event.eventId}/markets`)).status).toBe(200);
    expect((await get(sim, `/markets/${event.marketIds[0]}`)).body).toMatchObject({ result: 'yes', status: 'closed' });
    expect((await get(sim, `/orderbook/${event.marketIds[0]}`)).text).toBe('null');
  });
});
