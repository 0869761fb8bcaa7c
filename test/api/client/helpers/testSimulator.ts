import { type Simulator, type SimulatorOptions, startSimulator } from '../../../../src/simulator/index.js';
import { TEST_KEY } from './testClient.js';

/** The simulator speaking the spec's shapes and knowing TEST_KEY; `options` sets the rest. */
export function testSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ shape: 'spec', apiKey: TEST_KEY, ...options });
}

/** The ids of the first `count` markets of the simulator's world. */
export function firstMarketIds(sim: Simulator, count: number): string[] {
  return sim.world
    .markets()
    .slice(0, count)
    .map((m) => m.marketId);
}
