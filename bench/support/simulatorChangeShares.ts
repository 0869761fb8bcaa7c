import { KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { World } from '../../src/simulator/index.js';
import { minimumRequests } from './minimumRequests.js';

/**
 * How many books and prices of the simulator's open markets differ after each interval (a fresh
 * world per interval), and what one crawl of that world costs: the change rates docs/scaling.md
 * builds on.
 */
export function simulatorChangeShares(seed: number, intervalsSec: readonly number[]) {
  const markets = 10_000;
  const probe = new World({ seed, markets, shape: 'live' });
  const budget = minimumRequests(probe, KNOWN_PROVIDERS, ['all'], 100, probe.nowSec - 86_400);
  const stats = probe.stats();
  const rows = intervalsSec.map((intervalSec) => {
    const world = new World({ seed, markets, shape: 'live' });
    const open = world.markets().filter((m) => m.status === 'open');
    const before = open.map((m) => [
      JSON.stringify(world.orderBookJson(m.marketId)),
      JSON.stringify(world.marketJson(m.marketId)?.pricing),
    ]);
    world.step(intervalSec);
    let books = 0;
    let prices = 0;
    open.forEach((m, i) => {
      if (JSON.stringify(world.orderBookJson(m.marketId)) !== before[i]![0]) books++;
      if (JSON.stringify(world.marketJson(m.marketId)?.pricing) !== before[i]![1]) prices++;
    });
    return [`${intervalSec / 60} min`, `${((books / open.length) * 100).toFixed(1)} %`, `${((prices / open.length) * 100).toFixed(1)} %`];
  });
  return { markets, stats, budget, rows };
}
