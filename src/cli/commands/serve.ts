import type { Command } from 'commander';

import type { Config } from '../../config.js';
import type { ServeOptions } from './serveAction.js';

export function registerServe(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('serve')
    .description('run the scheduled ingestion service until stopped (what `npm start` runs)')
    .option('--allow-upstream-change', 'write into a database that holds data from another PREDICTION_API_URL')
    // The action and the service it runs are loaded only when `serve` runs.
    .action(async (opts: ServeOptions) => {
      const { serveAction } = await import('./serveAction.js');
      await serveAction(opts, deps);
    });
}
