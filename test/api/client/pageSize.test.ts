import { afterEach, describe, expect, it } from 'vitest';

import { ApiRequestInvalidError, createPredictionClient, type PredictionClient } from '../../../src/api/client/index.js';
import { closedEventsRequest, eventCategoriesRequest, listEventsRequest } from '../../../src/api/endpoints/requests.js';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';

/** GET /events in pages of the service's size: `limit` (1..100), continuing from what each answer said. */
const KEY = 'page-size-key';
let sim: Simulator | undefined;
let client: PredictionClient | undefined;
afterEach(async () => {
  await client?.close();
  await sim?.stop();
  client = sim = undefined;
});

const listingQueries = (s: Simulator) =>
  s.requests.filter((r) => r.path.endsWith('/events')).map((r) => Object.fromEntries(new URLSearchParams(r.query)));

describe('the listing page size', () => {
  it('asks for pages of 100 by `limit` by default, and of `listingPageSize` when set', async () => {
    sim = await startSimulator({ shape: 'live', seed: 5, markets: 1500, apiKey: KEY });
    const expected = sim.world.listEvents({ provider: 'polymarket', category: 'all', sortBy: 'beginAt' }).map((e) => e.eventId);
    expect(expected.length).toBeGreaterThan(100);
    for (const [pageSize, clientOptions] of [
      [100, {}],
      [30, { listingPageSize: 30 }],
    ] as const) {
      sim.resetRequests();
      client = createPredictionClient({ baseUrl: sim.url, apiKey: KEY, ...clientOptions });
      const seen: string[] = [];
      for await (const page of client.iterateEvents({ provider: 'polymarket', sortBy: 'beginAt' })) {
        for (const item of page.items) if (item.ok) seen.push(item.value.eventId);
      }
      expect(seen).toEqual(expected);
      const queries = listingQueries(sim);
      expect(queries).toHaveLength(Math.ceil(expected.length / pageSize));
      expect(queries.map((q) => [q.start, q.limit, q.end])).toEqual(
        queries.map((_, i) => [String(i * pageSize), String(pageSize), undefined]),
      );
      await client.close();
    }
  });

  it('follows a server that answers fewer than asked: each page starts at the previous pagination.end', async () => {
    sim = await startSimulator({ shape: 'live', seed: 5, markets: 1500, apiKey: KEY, maxLimit: 45 });
    client = createPredictionClient({ baseUrl: sim.url, apiKey: KEY });
    const expected = sim.world.listEvents({ provider: 'polymarket', category: 'all', sortBy: 'beginAt' }).map((e) => e.eventId);
    const seen: string[] = [];
    for await (const page of client.iterateEvents({ provider: 'polymarket', sortBy: 'beginAt' })) {
      for (const item of page.items) if (item.ok) seen.push(item.value.eventId);
    }
    expect(seen).toEqual(expected);
    const starts = listingQueries(sim).map((q) => Number(q.start));
    expect(starts).toEqual(starts.map((_, i) => i * 45));
    expect(listingQueries(sim).filter((q) => q.limit !== '100')).toEqual([]);
  });

  it('refuses a page size outside 1..100, naming it, before anything is sent', () => {
    expect(() => listEventsRequest({ limit: 0 })).toThrow(ApiRequestInvalidError);
    expect(() => listEventsRequest({ limit: 101 })).toThrow(/limit must be an integer from 1 to 100/);
    expect(listEventsRequest({ start: 200, limit: 100 }).query).toBe('start=200&limit=100');
    expect(() => createPredictionClient({ baseUrl: 'http://127.0.0.1:1/prediction/v1', allowKeyless: true, listingPageSize: 101 })).toThrow(
      /listingPageSize must be at most 100/,
    );
    expect(() => closedEventsRequest({ since: 0 })).toThrow(/since must be an integer >= 1/);
    expect(closedEventsRequest({ provider: 'polymarket', since: 1_783_252_000, start: 0, end: 100 }).query).toBe(
      'provider=polymarket&since=1783252000&start=0&end=100',
    );
    expect(eventCategoriesRequest({ provider: 'bisonfi', includeClosed: true }).query).toBe('provider=bisonfi&includeClosed=true');
  });
});
