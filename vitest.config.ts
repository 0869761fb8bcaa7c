import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/citus needs a Citus cluster: `npm run test:citus` (vitest.citus.config.ts).
    exclude: [...configDefaults.exclude, 'test/citus/**'],
    globalSetup: ['test/setup/globalSetup.ts'],
    // Test files run in parallel, each in its own database; 2 workers suit a 2-core machine.
    maxWorkers: 2,
    testTimeout: 30_000,
    // expect.poll waits for something that must happen: a loaded machine may need more than the 1 s default.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
  },
});
