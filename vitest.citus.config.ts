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
  },
});
