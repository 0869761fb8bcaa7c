/**
 * SIGTERM to `sync` when waiting on the upstream is all it has left to do: a hung upstream, or a
 * rate budget spent. It must drop every request (in flight, queued, waiting for the limit), commit
 * what it fetched, record the run as aborted and exit 130 within 25 s.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ExitCode } from '../../src/cli/exitCodes.js';
import type { Simulator } from '../../src/simulator/index.js';
import { type RunningCli, spawnCli } from '../helpers/spawnCli.js';
import { API_KEY, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let sim: Simulator;
const running: { cli?: RunningCli; db?: TestDatabase } = {};

beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 5, markets: 120 }));
});
afterEach(async () => {
  running.cli?.child.kill('SIGKILL');
  await running.db?.close();
  sim.faults.reset();
  sim.setRateLimits({ keyed: { requests: 1_000_000, windowMs: 60_000 } });
});
afterAll(() => sim.stop());

const env = (db: TestDatabase, rpm: number) => ({
  DATABASE_URL: db.url,
  PREDICTION_API_URL: sim.url,
  PREDICTION_API_KEY: API_KEY,
  PREDICTION_RATE_LIMIT_RPM: String(rpm),
});

/** Starts `sync`, waits until the crawl has committed some pages, then lets `stall` stop the upstream. */
async function syncThenStall(rpm: number, stall: () => void): Promise<{ cli: RunningCli; db: TestDatabase }> {
  const db = await createTestDatabase();
  running.db = db;
  const cli = spawnCli(['sync', '--batch-size', '5'], env(db, rpm));
  running.cli = cli;
  for (;;) {
    const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.events`;
    if (row!.n >= 20) break;
    if (cli.child.exitCode !== null) throw new Error(`sync ended early: ${cli.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  stall();
  // Let the stall bite: requests now hang or wait for the budget.
  await new Promise((r) => setTimeout(r, 1_500));
  return { cli, db };
}

async function stopAndCheck(cli: RunningCli, db: TestDatabase): Promise<void> {
  const eventsBefore = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.events`;
  const signalledAt = Date.now();
  const sentBefore = sim.requests.length;
  cli.child.kill('SIGTERM');
  const code = await cli.exited;
  const tookMs = Date.now() - signalledAt;
  expect({ code, stderr: cli.stderr().slice(-500) }).toMatchObject({ code: ExitCode.interrupted });
  expect(tookMs).toBeLessThan(25_000);
  expect(cli.stderr()).toContain('stopping: no request is sent any more');
  // Requests may land a moment after the signal, never later.
  expect(sim.requests.slice(sentBefore).filter((r) => r.timeMs > signalledAt + 250)).toEqual([]);
  const runs = await db.sql<
    { status: string; error: string | null }[]
  >`select status, error from prediction.ingest_runs where job = 'sync'`;
  expect(runs).toEqual([{ status: 'aborted', error: 'stopped by a signal' }]);
  // What was fetched before the signal is committed, nothing is lost.
  const [after] = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.events`;
  expect(after!.n).toBeGreaterThanOrEqual(eventsBefore[0]!.n);
  const [lease] = await db.sql<{ free: boolean }[]>`select expires_at <= now() as free from prediction.job_leases where name = 'sync'`;
  expect(lease?.free).toBe(true);
}

describe('sync on SIGTERM', () => {
  it('while every request hangs upstream: exits 130 within 25 s, run aborted, lease freed', async () => {
    const { cli, db } = await syncThenStall(1_000_000, () => sim.faults.set({ hangRate: 1 }));
    expect(sim.requests.map((r) => r.outcome)).toContain('hung');
    await stopAndCheck(cli, db);
  }, 90_000);

  it('while requests wait for a spent rate budget: exits 130 within 25 s, nothing sent after the signal', async () => {
    // The client's own plan: 60 requests a minute, most of them spent by the time the signal comes.
    const { cli, db } = await syncThenStall(60, () => {});
    await stopAndCheck(cli, db);
  }, 90_000);
});
