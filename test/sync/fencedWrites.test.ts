/** A job whose fence refuses (it lost its lease) writes nothing at all: data, coverage and shapes alike. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
let sim: Simulator;
let client: PredictionClient;

beforeAll(async () => {
  const h = await startHarness({ seed: 21, markets: 30 });
  sim = h.sim;
  client = h.newClient();
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

describe('fenced writes', () => {
  it('a refused fence commits no row in any table the sync writes', async () => {
    const refused = new Error('the lease is gone');
    await expect(
      syncOnce(db.sql, client, sim, {
        fence: async () => {
          throw refused;
        },
      }),
    ).rejects.toBe(refused);
    const counts = await db.sql<{ table_name: string; n: number }[]>`
      select 'events' as table_name, count(*)::int as n from prediction.events
      union all select 'markets', count(*)::int from prediction.markets
      union all select 'crawl_coverage', count(*)::int from prediction.crawl_coverage
      union all select 'upstream_shapes', count(*)::int from prediction.upstream_shapes
      union all select 'rejected_records', count(*)::int from prediction.rejected_records`;
    expect(counts.filter((c) => c.n > 0)).toEqual([]);
  });
});
