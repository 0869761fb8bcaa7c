import type { PredictionClient } from '../api/client/index.js';
import type { Sql } from '../db/connect.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import type { SyncTotals } from './syncTotals.js';

/** What every phase of a sync cycle works with. */
export interface SyncContext {
  sql: Sql;
  client: PredictionClient;
  runId: number;
  providers: readonly string[];
  categories: readonly string[];
  /** Observation clock: stamped on what a response carried, when it arrived. */
  now: () => Date;
  totals: SyncTotals;
  /** Items fetched per write transaction in the detail and order-book phases. */
  batchSize: number;
  /**
   * Aborting it ends the work early and without error: each phase commits what had arrived and
   * returns. `client` should be a `withSignal(signal)` view of the client, so that its calls
   * (queued, paused, backing off or in flight) are dropped at once rather than finished.
   */
  signal?: AbortSignal | undefined;
  /** Passed to every write: a job that lost its lock commits nothing more. */
  fence?: WriteFence | undefined;
  /** Reports a phase's progress (a TTY progress line, or nothing). */
  progress: (message: string) => void;
}
