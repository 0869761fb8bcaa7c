import type { Queryable } from '../sql/core/queryable.js';
import { lastCompleteCrawlStart } from '../sql/targets/selectSyncTargets.js';
import type { ClosingWindow } from './marketDetailTargets.js';

// The jobs by name, without their work (service/jobKinds.ts): `status` and `plan` read these and
// would otherwise load every phase of a cycle, the client and the writers with them.

/**
 * The service's jobs, in the order `status` and `plan` list them: a new job is appended, since
 * scripts read that order. JOB_PRIORITY orders their requests.
 */
export const JOB_NAMES = ['crawl', 'details', 'orderbooks', 'trades'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** The job name a one-off `sync` cycle runs and is recorded under; it takes the same lease whoever runs it. */
export const SYNC_JOB = 'sync';

/** p-queue priority of each job's requests (higher goes first): the crawl is never starved by the others. */
// Trades come right after the listings: a fill the feed has dropped cannot be read again, a book can.
export const JOB_PRIORITY: Record<JobName, number> = { crawl: 30, trades: 25, details: 20, orderbooks: 10 };

/** The details job also refreshes open markets closing within 10 minutes or closed up to an hour ago, so a close is captured promptly. */
export const DETAILS_CLOSING_WINDOW: Readonly<ClosingWindow> = Object.freeze({ aheadSec: 600, behindSec: 3600 });

/**
 * What the details job counts as having left the listings: not seen since the start of the latest
 * complete crawl (the service's or a `sync`'s). Null before any crawl completed: nothing has left yet.
 */
export function detailsSeenSince(sql: Queryable): Promise<Date | null> {
  return lastCompleteCrawlStart(sql, ['crawl', SYNC_JOB]);
}
