import { ApiServerError } from '../../src/api/client/index.js';
import { DEMO_WORLD } from '../../src/cli/commands/demo.js';
import type { Sql } from '../../src/db/connect.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startHarness, syncOnce } from './syncHarness.js';

/** How often the demo's service crawls (its crawl schedule, src/cli/commands/demo.ts). */
export const DEMO_CRAWL_EVERY_SEC = 20;

export interface DemoRun {
  sim: Simulator;
  /** The wall clock the run was observed on, ms: its start (the world's start) and its end. */
  startMs: number;
  endMs: number;
  /** The wall clock of each poll that failed because the upstream answered 5xx (the demo's outage), ms. */
  failedPollsMs: number[];
}

/**
 * `minutes` of `npm run demo` in a few seconds: the demo's world on the simulator's realtime clock,
 * at the demo's speed, against a wall clock of the test's own that jumps a crawl interval at a
 * time; after each jump the world catches up (the driver steps it by the elapsed time) and one
 * sync cycle observes it at that instant, as the demo's service would. A cycle that fails on the
 * upstream's 5xx is left failed, as the demo's jobs are, and the next one goes on. The run ends at
 * the real now, so queries relative to now() see it as a demo that has just run that long.
 */
export async function runDemo(sql: Sql, minutes: number, options: { markets?: number } = {}): Promise<DemoRun> {
  const startMs = Date.now() - minutes * 60_000;
  let wallMs = startMs;
  const { sim, newClient } = await startHarness({
    ...DEMO_WORLD,
    ...(options.markets === undefined ? {} : { markets: options.markets }),
    shape: 'live',
    nowMs: () => wallMs,
    stepEveryMs: 5,
  });
  const client = newClient();
  const startSec = sim.world.nowSec;
  const failedPollsMs: number[] = [];
  try {
    for (let elapsedSec = DEMO_CRAWL_EVERY_SEC; elapsedSec <= minutes * 60; elapsedSec += DEMO_CRAWL_EVERY_SEC) {
      wallMs = startMs + elapsedSec * 1000;
      // The driver steps whole simulated seconds; a float's last bit may leave one for the next tick.
      const dueSec = startSec + elapsedSec * DEMO_WORLD.speed - 1;
      while (sim.world.nowSec < dueSec) await new Promise((resolve) => setTimeout(resolve, 2));
      const at = new Date(wallMs);
      await syncOnce(sql, client, sim, { now: () => at }).catch((error: unknown) => {
        // Only the outage of the demo's schedule may fail a cycle: every answer then is a 5xx.
        if (!(error instanceof ApiServerError) || sim.faults.get().errorRate !== 1) throw error;
        failedPollsMs.push(wallMs);
      });
    }
  } catch (error) {
    await sim.stop();
    throw error;
  } finally {
    await client.close();
  }
  return { sim, startMs, endMs: wallMs, failedPollsMs };
}
