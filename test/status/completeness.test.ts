import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import { KNOWN_PROVIDERS } from '../../src/domain/types.js';
import type { Simulator } from '../../src/simulator/index.js';
import { collectStatus } from '../../src/status/collectStatus.js';
import { formatStatus } from '../../src/status/formatStatus.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

/**
 * `status` sets the service's own event counts (GET /events/categories, read with each crawl)
 * beside what the crawl listed, per provider and category: a category the crawl misses is visible.
 */
let sim: Simulator;
let client: PredictionClient;

beforeAll(async () => {
  let newClient: () => PredictionClient;
  ({ sim, newClient } = await startHarness({ shape: 'live', seed: 19, markets: 80 }));
  client = newClient();
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

const statusOf = async (sql: Parameters<typeof collectStatus>[0]) =>
  collectStatus(sql, {
    at: new Date(sim.world.nowSec * 1000),
    since: new Date((sim.world.nowSec - 3600) * 1000),
    thresholds: { listingMaxAgeSec: 600, bookMaxAgeSec: 900 },
    providers: KNOWN_PROVIDERS,
    categories: ['all'],
    rateLimitRpm: 600,
    retentionMonths: null,
  });

/** The service's count of active events per provider/category, as the simulator keeps them. */
const serviceCounts = () => {
  const counts = new Map<string, number>();
  for (const e of sim.world.events())
    if (e.isActive) counts.set(`${e.provider}/${e.category}`, (counts.get(`${e.provider}/${e.category}`) ?? 0) + 1);
  return counts;
};

describe('completeness in status', () => {
  it('shows, per provider and category, the service’s count beside the crawl’s, equal after an unfiltered crawl', async () => {
    const db = await createTestDatabase();
    try {
      await syncOnce(db.sql, client, sim, { categories: ['all'], maxOrderBooks: 0 });
      const report = await statusOf(db.sql);
      const expected = [...serviceCounts()].map(([key, n]) => [key, n, n]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
      expect(report.completeness.map((c) => [`${c.provider}/${c.category}`, c.serviceEvents, c.crawledEvents])).toEqual(expected);
      expect(formatStatus(report)).not.toMatch(/^\s*!/m);
    } finally {
      await db.close();
    }
  });

  it('marks a category the crawl missed: crawling crypto alone leaves the others at the service’s count only', async () => {
    const db = await createTestDatabase();
    try {
      await syncOnce(db.sql, client, sim, { categories: ['crypto'], maxOrderBooks: 0 });
      const report = await statusOf(db.sql);
      const missed = report.completeness.filter((c) => c.category !== 'crypto');
      expect(missed.length).toBeGreaterThan(0);
      for (const c of missed)
        expect([c.serviceEvents, c.crawledEvents]).toEqual([serviceCounts().get(`${c.provider}/${c.category}`), null]);
      const text = formatStatus(report);
      expect(text).toContain("Completeness: the service's own event count beside the latest complete crawl");
      const flagged = text.split('\n').filter((l) => /^\s*!/.test(l));
      expect(flagged).toHaveLength(missed.length);
    } finally {
      await db.close();
    }
  });
});
