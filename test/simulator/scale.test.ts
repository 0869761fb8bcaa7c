import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { crawl } from './http.js';

describe('a 100,000-market world', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ shape: 'spec', seed: 3, markets: 100_000, apiKey: 'test-key', rateLimit: { requests: 1_000_000 } });
  });
  afterAll(() => sim.stop());

  it('is generated exactly and crawls page by page with every listed market once', async () => {
    expect(sim.world.stats().markets).toBe(100_000);
    const { items, pages } = await crawl(sim, '/events?provider=kalshi&includeMarkets=true&sortBy=beginAt', 20);
    const listed = sim.world.listEvents({ provider: 'kalshi', category: 'all', sortBy: 'beginAt' });
    expect(items.map((e) => e.eventId)).toEqual(listed.map((e) => e.eventId));
    const marketIds = items.flatMap((e) => e.markets.map((m: { marketId: string }) => m.marketId));
    expect(new Set(marketIds).size).toBe(listed.reduce((n, e) => n + e.marketIds.length, 0));
    expect(pages.length).toBe(Math.ceil(listed.length / 20));
  });
});
