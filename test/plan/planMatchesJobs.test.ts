import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { ENDPOINTS } from '../../src/api/endpoints/requests.js';
import { ALL_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { readUniverse } from '../../src/plan/readUniverse.js';
import { jobWork } from '../../src/service/jobKinds.js';
import type { Simulator } from '../../src/simulator/index.js';
import type { JobName } from '../../src/sync/jobCatalog.js';
import { runJob } from '../../src/sync/runJob.js';
import { API_KEY, startHarness } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * The planner's figures for one run of each job, read from the database through the jobs' own
 * selections, against what the same jobs then send to a seeded simulator that does not move in
 * between: exact, request for request.
 */
const MAX_AGE_SEC = 3600;
const HOUR_SEC = 3600;
const providers = KNOWN_PROVIDERS;
const categories = [ALL_CATEGORIES];
const PAGE_SIZE = 20;

let sim: Simulator;
let client: PredictionClient;
const db = await useTestDatabase();
const now = () => new Date(sim.world.nowSec * 1000);

beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 11, markets: 300 }));
  // Pages of 20 (PREDICTION_PAGE_SIZE=20), so that each listing takes several.
  client = createPredictionClient({
    baseUrl: sim.url,
    apiKey: API_KEY,
    rateLimit: { requests: 1_000_000, windowMs: 60_000 },
    listingPageSize: PAGE_SIZE,
  });
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

/** One run of a service job, as the scheduler runs it (its work, no deadline), and its requests by endpoint. */
async function runServiceJob(job: JobName): Promise<Record<string, number>> {
  const work = jobWork(job, { orderBookMaxAgeSec: MAX_AGE_SEC, maxRejectedPercent: 5 });
  const result = await runJob(db.sql, client, job, { providers, categories, now }, (ctx) => work(ctx, new Date(8.64e15)));
  expect(result.status).toBe('succeeded');
  return Object.fromEntries(
    Object.entries(result.totals.requestsByStatus).map(([endpoint, byStatus]) => [
      endpoint,
      Object.values(byStatus).reduce((a, b) => a + b, 0),
    ]),
  );
}

const universeNow = () => readUniverse(db.sql, { providers, categories, orderBookMaxAgeSec: MAX_AGE_SEC, now: now(), pageSize: PAGE_SIZE });

describe('plan against the jobs', () => {
  it('predicts each job run request for request: listing pages, event and market details, books', async () => {
    for (const job of ['crawl', 'details', 'orderbooks'] as const) await runServiceJob(job);
    // Two hours on, one event is delisted and one resolved (both leave the listing, their markets
    // unsettled as last seen), and two listed markets near their close. The closed-events feed shows
    // the resolved one; the delisted one's detail alone brings its markets.
    sim.world.step(2 * HOUR_SEC);
    const listed = sim.world.events().filter((e) => e.isActive && e.marketIds.length > 1);
    const [delisted, resolved] = [listed[0]!, listed[1]!];
    sim.world.delistEvent(delisted.eventId);
    sim.world.resolveEvent(resolved.eventId, resolved.marketIds[0]!);
    const closing = sim.world.markets().filter((m) => m.status === 'open' && ![delisted.eventId, resolved.eventId].includes(m.eventId));
    for (const m of closing.slice(0, 2)) sim.world.setCloseTime(m.marketId, sim.world.nowSec + 300);
    await runServiceJob('crawl');

    const universe = await universeNow();
    expect(universe.listings.map((l) => `${l.provider}/${l.category}`)).toEqual(providers.map((p) => `${p}/all`));
    expect(universe.listings.filter((l) => !(l.eventsListed !== null && l.pages >= 2))).toEqual([]);
    expect(universe.detailEvents).toBe(1);
    expect(universe.detailMarkets).toBe(2);
    // Two hours after the last sweep, every open market's book is due.
    expect(universe.dueBooks).toBe(universe.openMarkets);

    const books = await runServiceJob('orderbooks');
    expect(books).toEqual({ [ENDPOINTS.getOrderBook]: universe.openMarkets });
    expect((await universeNow()).dueBooks).toBe(0);

    // The same world listed again: the pages the planner counted from the latest crawl's coverage.
    const crawl = await runServiceJob('crawl');
    // Besides its listing pages, a crawl reads the closed-events feed and the category counts.
    expect(crawl).toEqual({
      [ENDPOINTS.listEvents]: universe.listings.reduce((n, l) => n + l.pages, 0),
      [ENDPOINTS.closedEvents]: universe.feedRequests - providers.length,
      [ENDPOINTS.eventCategories]: providers.length,
    });

    const details = await runServiceJob('details');
    expect(details).toEqual({ [ENDPOINTS.getEvent]: universe.detailEvents, [ENDPOINTS.getMarket]: universe.detailMarkets });
  });
});
