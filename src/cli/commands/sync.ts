import type { Command } from 'commander';

import type { Config } from '../../config.js';
import { integer } from '../optionParsers.js';
import type { SyncOptions } from './syncAction.js';

export function registerSync(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('sync')
    .description('run one complete sync cycle against the configured API and database, then exit')
    .option('--max-orderbooks <n>', 'fetch at most N order books this cycle (default: every open market)', integer(0))
    .option('--batch-size <n>', 'items fetched per write transaction in the detail and order-book phases', integer(1), 50)
    .option('--allow-upstream-change', 'write into a database that holds data from another PREDICTION_API_URL')
    // The action and the cycle it runs (the client, the writers) are loaded only when `sync` runs.
    .action(async (opts: SyncOptions) => {
      const { syncAction } = await import('./syncAction.js');
      await syncAction(opts, deps);
    });
}
