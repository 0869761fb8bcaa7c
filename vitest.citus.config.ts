import { configDefaults, defineConfig } from 'vitest/config';

import base from './vitest.config.js';

/**
 * `npm run test:citus`: the tests that matter on a Citus cluster, run against one (started through
 * CITUS_CLUSTER_SCRIPT, or CITUS_TEST_URL's). Not part of `npm test`. The files share the cluster's
 * one database, which each empties and lays out again: they run one at a time.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/citus/**/*.test.ts',
      'test/sync/syncCycle.test.ts',
      'test/sync/fencedWrites.test.ts',
      'test/service/fencing.test.ts',
      // Their first database is the cluster's: the scheduled service's three jobs run there
      // (scheduling.test.ts compares it with a reference run on the single Postgres).
      'test/service/scheduling.test.ts',
      'test/service/liveService.test.ts',
      'test/analytics/prices.test.ts',
      'test/analytics/orderbook.test.ts',
      'test/analytics/resolutionsAndCoverage.test.ts',
      'test/partitions/retention.test.ts',
      'test/partitions/retentionSetting.test.ts',
      'test/partitions/upkeepLocks.test.ts',
    ],
    exclude: configDefaults.exclude,
    globalSetup: ['test/setup/citusGlobalSetup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    // A test that asks for its database empties and lays out the cluster's (about 10 s), and every
    // statement over the shards pays the coordinator's fan-out.
    testTimeout: 120_000,
  },
});
