import { afterEach, describe, expect, it } from 'vitest';

import { ApiKeyRejectedError, ApiNotFoundError, type PredictionClient } from '../../../src/api/client/index.js';
import type { Simulator } from '../../../src/simulator/index.js';
import { maxInAnyWindow, sendLog } from './helpers/sendLog.js';
import { testClient } from './helpers/testClient.js';
import { firstMarketIds, testSimulator } from './helpers/testSimulator.js';

/** The client against the project's simulator: its limiter, pagination cap, faults and auth. */
describe('client against the simulator', () => {
  let sim: Simulator;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await sim?.stop();
  });

  it('pages every active event of a provider exactly once through a capped page size', async () => {
    // Pages asked for by `limit` (100) and answered 7 at a time: paging follows what the server answered.
    sim = await testSimulator({ seed: 7, markets: 300, maxLimit: 7 });
    client = testClient(sim.url);
    const expected = sim.world.listEvents({ provider: 'kalshi', category: 'all', sortBy: 'beginAt' }).map((e) => e.eventId);
    expect(expected.length).toBeGreaterThan(20);
    const seen: string[] = [];
    for await (const page of client.iterateEvents({ provider: 'kalshi', sortBy: 'beginAt' })) {
      for (const item of page.items) if (item.ok) seen.push(item.value.eventId);
    }
    expect(seen).toEqual(expected);
    expect(sim.counters().byStatus).toEqual({ '200': Math.ceil(expected.length / 7) });
  });

  it("pages an event's markets", async () => {
    sim = await testSimulator({ seed: 3, markets: 200, maxPageSize: 2 });
    client = testClient(sim.url);
    const event = sim.world.events().find((e) => e.marketIds.length >= 3)!;
    const seen: string[] = [];
    for await (const page of client.iterateEventMarkets(event.eventId)) {
      for (const item of page.items) if (item.ok) seen.push(item.value.marketId);
    }
    expect(seen).toEqual(event.marketIds);
  });

  it("stays under the server's own sliding window: no 429 from its limiter", async () => {
    sim = await testSimulator({ seed: 1, markets: 50, rateLimit: { requests: 8, windowMs: 400 } });
    // Same limit as the server's; the margin covers latency jitter, here on an event loop shared
    // with the server, where a stall delays an arrival but not the sends after it.
    client = testClient(sim.url, { rateLimit: { requests: 8, windowMs: 400, marginMs: 400 } });
    const ids = firstMarketIds(sim, 38);
    // A first burst on cold connections (and code not yet compiled) arrives late; it warms up
    // both sides, and its window has passed before the measured calls start.
    await Promise.all(ids.slice(0, 8).map((id) => client.getMarket(id)));
    await new Promise((resolve) => setTimeout(resolve, 800));
    sim.resetRequests();
    await Promise.all(ids.slice(8).map((id) => client.getMarket(id)));
    const counters = sim.counters();
    expect(counters.byOutcome.rate_limited ?? 0).toBe(0);
    expect(counters.byStatus).toEqual({ '200': 30 });
    expect(
      maxInAnyWindow(
        sim.requests.map((r) => r.timeMs),
        400,
      ),
    ).toBeLessThanOrEqual(8);
  });

  it('a 20% 429 storm completes; nothing leaves while paused', async () => {
    sim = await testSimulator({
      seed: 2,
      markets: 80,
      rateLimit: { requests: 1000, windowMs: 1000 },
      faults: { rateLimitStormRate: 0.2, stormRetryAfterMs: 60 },
    });
    const log = sendLog();
    client = testClient(sim.url, { interceptors: [log.interceptor], logger: log.logger, maxRateLimitRetries: 50 });
    log.watch(client);
    const ids = firstMarketIds(sim, 50);
    const results = await Promise.all(ids.map((id) => client.getMarket(id)));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const storms = sim.requests.filter((r) => r.outcome === 'storm');
    expect(storms.length).toBeGreaterThan(0);
    expect(client.stats().rateLimited).toBe(storms.length);
    expect(log.pauses).toHaveLength(storms.length);
    expect(log.sentWhilePausedMs).toEqual([]);
    for (const pause of log.pauses) {
      expect(pause.waitMs).toBe(60);
      expect(log.sentDuring(pause), `sends during the pause ${JSON.stringify(pause)}`).toEqual([]);
    }
  });

  it("retries the order book's 502s", async () => {
    sim = await testSimulator({ seed: 4, markets: 40, faults: { orderbookErrorRate: 0.5 } });
    client = testClient(sim.url, { maxAttempts: 10 });
    const ids = firstMarketIds(sim, 10);
    const books = await Promise.all(ids.map((id) => client.getOrderBook(id)));
    expect(books.filter((b) => !b.ok)).toEqual([]);
    expect(sim.counters().byStatus['502']).toBeGreaterThan(0);
    expect(client.stats().retries).toBe(sim.counters().byStatus['502']);
  });

  it('unknown ids are ApiNotFoundError; a wrong key stops the client after one request', async () => {
    sim = await testSimulator({ seed: 5, markets: 20 });
    client = testClient(sim.url);
    await expect(client.getMarket('NO-SUCH-MARKET')).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(client.getEvent('NO-SUCH-EVENT')).rejects.toBeInstanceOf(ApiNotFoundError);
    await client.close();

    sim.resetRequests();
    client = testClient(sim.url, { apiKey: 'sk-wrong-key-000000' });
    const calls = firstMarketIds(sim, 5).map((id) => client.getMarket(id).catch((e: unknown) => e));
    for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(ApiKeyRejectedError);
    await expect(client.listEvents()).rejects.toBeInstanceOf(ApiKeyRejectedError);
    // Up to `concurrency` requests had left together before the first 401 came back; none after.
    expect(sim.requests.length).toBeLessThanOrEqual(5);
    expect(sim.requests.filter((r) => r.status !== 401)).toEqual([]);
  });
});
