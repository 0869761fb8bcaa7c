import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { EVERY_SECOND, NEVER, startTestService } from '../helpers/serviceHarness.js';
import { startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

/**
 * The service's trades job against the simulator's trade feed (its own fills, the latest 20): at a
 * pace the schedule can follow, every fill is stored and no poll leaves a gap; a burst of more than
 * the feed holds between two polls is recorded as a gap, and the polls after it join again.
 */
let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await startHarness({ shape: 'live', seed: 11, markets: 40, startSec: Math.floor(Date.now() / 1000) }));
});
afterAll(() => sim.stop());

// Only the trades job ticks.
const fillIds = (count: number) => sim.world.recentTrades(count).map((t) => t.id);

describe('the trades job', () => {
  it('captures every fill at a pace it can follow, and records the gap a burst leaves', async () => {
    const db = await createTestDatabase();
    const { service } = await startTestService(sim, db.url, {
      schedules: { crawl: NEVER, details: NEVER, orderbooks: NEVER, trades: EVERY_SECOND },
    });
    const polls = () => db.sql<{ gap_before: boolean; trades_new: number }[]>`
      select gap_before, trades_new from analytics.trade_coverage order by poll_id`;
    const stored = async () => (await db.sql<{ trade_id: string }[]>`select trade_id from prediction.trades`).map((r) => r.trade_id).sort();
    const pollCount = async () => (await polls()).length;
    try {
      // 8 rounds of 5 fills, a poll between each: the feed's 20 rows always reach back to a stored one.
      for (let round = 0; round < 8; round++) {
        const before = await pollCount();
        sim.world.burstTrades(5);
        await expect.poll(pollCount).toBeGreaterThan(before);
      }
      const made = fillIds(1000).sort();
      await expect.poll(stored).toEqual(made);
      const followed = await polls();
      expect(followed[0]!.gap_before).toBe(true);
      expect(followed.slice(1).map((p) => p.gap_before)).toEqual(followed.slice(1).map(() => false));

      // 45 fills between two polls: the feed shows the newest 20, the 25 before them are lost.
      const beforeBurst = await pollCount();
      sim.world.burstTrades(45);
      await expect.poll(async () => (await stored()).length).toBe(made.length + 20);
      const burst = (await polls()).slice(beforeBurst).find((p) => p.trades_new > 0);
      expect(burst).toEqual({ gap_before: true, trades_new: 20 });
      expect(await stored()).toEqual([...made, ...fillIds(20)].sort());

      // Followed again: the next fills join the burst's.
      const afterBurst = await pollCount();
      sim.world.burstTrades(3);
      await expect.poll(async () => (await stored()).length).toBe(made.length + 23);
      expect((await polls()).slice(afterBurst).find((p) => p.trades_new > 0)).toEqual({ gap_before: false, trades_new: 3 });
    } finally {
      await service.stop();
      await db.close();
    }
  });
});
