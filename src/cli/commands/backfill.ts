import type { Command } from 'commander';

import type { Config } from '../../config.js';
import { TIME_FORMATS } from '../parseTime.js';
import type { BackfillOptions } from './backfillAction.js';

/**
 * `backfill --since <time>`: the resolutions of events that ended since then, from GET
 * /events/closed, as far back as the service answers. Prices and books have no history upstream:
 * they start at the first crawl whatever this reads.
 */
export function registerBackfill(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('backfill')
    .description('store the events that ended since a time, with their results, from GET /events/closed (resumable)')
    .requiredOption('--since <time>', `how far back: ${TIME_FORMATS}`)
    .option('--allow-upstream-change', 'write into a database that holds data from another PREDICTION_API_URL')
    // The action and the backfill it runs (the client, the writers) are loaded only when `backfill` runs.
    .action(async (opts: BackfillOptions) => {
      const { backfillAction } = await import('./backfillAction.js');
      await backfillAction(opts, deps);
    });
}
