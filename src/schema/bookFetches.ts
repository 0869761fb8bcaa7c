import { doublePrecision, integer, text } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * What each market's order-book fetches found, one row a market: the sweep's evidence for the
 * market's change rate (src/sync/bookSchedule.ts). Order books are stored change-only, so an
 * unchanged fetch leaves no snapshot row; this keeps its outcome. A fetch after an earlier one
 * counts as changed (its book differed from the stored one) or unchanged, with the time since
 * the fetch before; a market's first fetch has nothing to compare with and counts in `fetches`
 * only. A fetch that a change signal brought forward (a listed move, a fill in the trade feed)
 * counts apart, as signalled: it finds a change by construction, so it is no sample of the book's
 * rate at its interval (src/sync/changeRate.ts). Written in the books' own transaction, so it never
 * disagrees with the snapshots.
 */
export const bookFetches = predictionSchema.table('book_fetches', {
  marketId: text('market_id').primaryKey(),
  /** When the latest fetch's answer arrived. */
  lastFetchedAt: timestampTz('last_fetched_at').notNull(),
  fetches: integer('fetches').notNull().default(0),
  changedFetches: integer('changed_fetches').notNull().default(0),
  unchangedFetches: integer('unchanged_fetches').notNull().default(0),
  /** Sum of the times since the fetch before, over the changed fetches. */
  changedIntervalSec: doublePrecision('changed_interval_sec').notNull().default(0),
  /**
   * Sum of the squares of the same times, over the changed fetches: with the sum and the count,
   * their spread, which the rate's estimate needs (src/sync/changeRate.ts).
   */
  changedIntervalSqSec: doublePrecision('changed_interval_sq_sec').notNull().default(0),
  /** Sum of the times since the fetch before, over the unchanged fetches. */
  unchangedIntervalSec: doublePrecision('unchanged_interval_sec').notNull().default(0),
  /** Fetches after the first that a change signal brought forward; not in the two counts above. */
  signalledFetches: integer('signalled_fetches').notNull().default(0),
  /** Of the signalled fetches, those whose book had changed. */
  signalledChangedFetches: integer('signalled_changed_fetches').notNull().default(0),
  /** Sum of the times since the fetch before, over the signalled fetches. */
  signalledIntervalSec: doublePrecision('signalled_interval_sec').notNull().default(0),
  /**
   * Sum of the seconds from each signalled fetch's signal (the fill's time; the crawl's
   * observation of a listed move) to the fetch's answer: how soon a told change is stored
   * (src/plan/bookInformation.ts).
   */
  signalledLagSec: doublePrecision('signalled_lag_sec').notNull().default(0),
});
