import type { Command } from 'commander';

import type { Config } from '../../config.js';
import { integer } from '../optionParsers.js';
import type { PlanOptions } from './planAction.js';

export function registerPlan(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('plan')
    .description(
      'how the request budget is spent on listings, details and order books, and how often each book is refreshed, from what the database holds',
    )
    .option(
      '--rpm <n>',
      "plan for this many requests per minute (default: the running service's rate as it stored it, else PREDICTION_RATE_LIMIT_RPM)",
      integer(1),
    )
    .option('--json', 'print the plan as JSON')
    // The action and what it reads (the database, the plan's replay) are loaded only when `plan` runs.
    .action(async (opts: PlanOptions) => {
      const { planAction } = await import('./planAction.js');
      await planAction(opts, deps);
    });
}
