import { afterEach, describe, expect, it } from 'vitest';

import type { PredictionClient, RequestEvent } from '../../../src/api/client/index.js';
import type { Simulator } from '../../../src/simulator/index.js';
import { testClient } from './helpers/testClient.js';
import { firstMarketIds, testSimulator } from './helpers/testSimulator.js';

describe('observedBy', () => {
  let sim: Simulator;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await sim?.stop();
  });

  it("reports each view's own attempts, retries included, while they share one queue", async () => {
    sim = await testSimulator({ seed: 2, markets: 60, subSecondRetryAfter: true, faults: { orderbookErrorRate: 0.3 } });
    client = testClient(sim.url);
    const markets = firstMarketIds(sim, 12);
    const a: RequestEvent[] = [];
    const b: RequestEvent[] = [];
    const viewA = client.observedBy((e) => a.push(e));
    const viewB = client.withPriority(5).observedBy((e) => b.push(e));
    await Promise.all([...markets.map((id) => viewA.getMarket(id)), ...markets.map((id) => viewB.getOrderBook(id))]);
    expect(a.map((e) => e.endpoint)).toEqual(markets.map(() => '/markets/{marketId}'));
    expect(new Set(b.map((e) => e.endpoint))).toEqual(new Set(['/orderbook/{marketId}']));
    // Every attempt of B's calls, the 502s it retried included, and nothing else.
    expect(b.length).toBe(sim.requests.filter((r) => r.path.includes('/orderbook/')).length);
    expect(b.map((e) => e.status)).toContain(502);
    expect(client.stats().totalRequests).toBe(a.length + b.length);
  });
});
