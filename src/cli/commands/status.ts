import { type Command, InvalidArgumentError } from 'commander';

import type { Config } from '../../config.js';
import { integer } from '../optionParsers.js';
import { parseSince, TIME_FORMATS } from '../parseTime.js';
import type { StatusOptions } from './statusAction.js';

const DEFAULT_SINCE = '24h';

/** The options as commander hands them over: `--since` may be absent. */
type StatusFlags = Omit<StatusOptions, 'since'> & { since?: string };

/** Checks `--since` when it is parsed (so commander names it in the error) and keeps the text: it is read against the report's instant. */
function sinceArgument(value: string): string {
  try {
    parseSince(value, new Date());
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}

export function registerStatus(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('status')
    .description(
      'report the latest runs, freshness, drift and quarantine, database size and request rate; exit non-zero when unhealthy (read-only)',
    )
    .option('--json', 'print one JSON document instead of text')
    .option(
      '--since <when>',
      `start of the period the run, drift and quarantine counts cover, and in which a job's latest run failing (or degrading) counts: ${TIME_FORMATS} (default: ${DEFAULT_SINCE})`,
      sinceArgument,
    )
    .option(
      '--max-age-sec <n>',
      'age allowed for the latest complete crawl of each listing crawled (default: twice the CRAWL_SCHEDULE period)',
      integer(1),
    )
    .option(
      '--max-book-age-sec <n>',
      "age allowed for the oldest open market's order book (default: ORDERBOOK_MAX_AGE_SEC plus twice the ORDERBOOK_SCHEDULE period)",
      integer(1),
    )
    // The action and what it reads (the database, the report) are loaded only when `status` runs.
    .action(async (opts: StatusFlags) => {
      const { statusAction } = await import('./statusAction.js');
      await statusAction({ ...opts, since: opts.since ?? DEFAULT_SINCE }, deps);
    });
}
