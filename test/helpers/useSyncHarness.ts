import { afterAll, beforeAll, beforeEach } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import type { Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { startHarness } from './syncHarness.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

export interface SyncHarness {
  sim: Simulator;
  /** A client against `sim`, shared by the file's tests. */
  client: PredictionClient;
  /** Another client against `sim`, for a test that needs its own; the test closes it. */
  newClient: () => PredictionClient;
  /** The current test's own database. */
  db: TestDatabase;
}

/**
 * For a test file: the simulator and client of `startHarness(options)`, started before its first
 * test and stopped after its last, and a fresh database for each test. The fields are set once
 * the tests run.
 */
export function useSyncHarness(options: SimulatorOptions = {}): SyncHarness {
  const harness = {} as SyncHarness;
  beforeAll(async () => {
    const { sim, newClient } = await startHarness(options);
    Object.assign(harness, { sim, newClient, client: newClient() });
  });
  afterAll(async () => {
    await harness.client?.close();
    await harness.sim?.stop();
  });
  beforeEach(async () => {
    harness.db = await createTestDatabase();
    return () => harness.db.close();
  });
  return harness;
}
