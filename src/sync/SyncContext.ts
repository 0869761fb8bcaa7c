import type { PredictionClient } from '../api/client/index.js';
import type { Sql } from '../db/connect.js';
import type { WriteFence } from '../sql/acquireWriteLock.js';
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
  signal?: AbortSignal | undefined;
  /** Passed to every write: a job that lost its lock commits nothing more. */
  fence?: WriteFence | undefined;
  /** Reports a phase's progress (a TTY progress line, or nothing). */
  progress: (message: string) => void;
}
