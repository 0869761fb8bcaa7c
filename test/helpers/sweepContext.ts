import type { PredictionClient } from '../../src/api/client/index.js';
import type { Sql } from '../../src/db/connect.js';
import { startRun } from '../../src/sql/core/ingestRuns.js';
import type { SyncContext } from '../../src/sync/SyncContext.js';
import { SyncTotals } from '../../src/sync/syncTotals.js';

/** A run's context for calling the order-book sweep alone: a new run, polymarket, all categories. */
export async function sweepContext(sql: Sql, client: PredictionClient, extra: Partial<SyncContext> = {}): Promise<SyncContext> {
  return {
    sql,
    client,
    runId: await startRun(sql, 'test', new Date()),
    providers: ['polymarket'],
    categories: ['all'],
    now: () => new Date(),
    totals: new SyncTotals(),
    batchSize: 50,
    progress: () => {},
    ...extra,
  };
}
