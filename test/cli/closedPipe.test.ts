import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { spawnCli } from '../helpers/spawnCli.js';
import { API_KEY, startHarness } from '../helpers/syncHarness.js';

let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await startHarness({ markets: 200 }));
});
afterAll(() => sim.stop());

describe('output read by a command that stops early (`| head`)', () => {
  it('ends the command quietly, with its own exit code, rather than with a stack trace', async () => {
    const cli = spawnCli(['events', '--include-markets', '--end', '20'], { PREDICTION_API_URL: sim.url, PREDICTION_API_KEY: API_KEY });
    // The reader goes away before the first byte: every write of the command then fails with EPIPE.
    cli.child.stdout!.destroy();
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).not.toMatch(/EPIPE|Unhandled 'error' event/);
  });
});
