import { getTableName } from 'drizzle-orm';
import { getViewConfig } from 'drizzle-orm/pg-core';
import type { Checked, OrderBook } from '../domain/types.js';
import type { Sql } from '../db/connect.js';
import * as schema from '../schema/index.js';
import type { WriteFence } from '../sql/acquireWriteLock.js';
import { ensureMonthPartitions } from '../sql/ensureMonthPartitions.js';
import { quarantineRecords } from '../sql/quarantineRecords.js';
import { recordOrderBooks } from '../sql/recordOrderBooks.js';
import { recordShapes } from '../sql/recordShapes.js';
import { RecordTally } from './recordTally.js';
import { emptyCounts, lastByKey, type WriteCounts } from './writeCounts.js';
import { writeTransaction } from './writeTransaction.js';

/** The books of one fetch and when they were received. */
export interface FetchedOrderBooks {
  books: readonly Checked<OrderBook>[];
  observedAt: Date;
}

export interface OrderBooksWrite {
  runId: number | null;
  /** Route template the books came from, for the quarantine and the counts. */
  endpoint: string;
  /** One or more fetches, oldest first; each book keeps its own fetch's time. */
  fetches: readonly FetchedOrderBooks[];
  /** Checked in the transaction before anything is written (see WriteFence). */
  fence?: WriteFence | undefined;
}

/** Writes the order books of one or more fetches in one transaction; invalid ones are quarantined. */
export async function writeOrderBooks(sql: Sql, batch: OrderBooksWrite): Promise<WriteCounts> {
  const all = batch.fetches.flatMap((f) => f.books.map((checked) => ({ checked, observedAt: f.observedAt })));
  const tally = new RecordTally();
  for (const { checked } of all) {
    if (checked.ok) tally.accepted(batch.endpoint, checked.value);
    else tally.rejected(batch.endpoint, checked.rejection);
  }
  const books = lastByKey(
    all.flatMap(({ checked, observedAt }) => (checked.ok ? [{ book: checked.value, observedAt }] : [])),
    (o) => o.book.marketId,
  );
  const firstAt = batch.fetches[0]?.observedAt;
  const lastAt = batch.fetches.at(-1)?.observedAt;
  if (!firstAt || !lastAt) return emptyCounts();
  return writeTransaction(sql, batch.fence, async (tx) => {
    // Sent together, without waiting for one another's answers: a connection runs its statements
    // in the order they were sent, so the months exist before the books' COPY. All are settled
    // before the transaction ends, so that none goes on past a rollback. (postgres.js reports the
    // error that aborted the transaction, not the 25P02 of the statements after it.)
    const [prior, written] = await Promise.allSettled([
      Promise.all([
        ensureMonthPartitions(tx, firstAt, lastAt),
        quarantineRecords(tx, batch.runId, tally.quarantined, lastAt),
        recordShapes(tx, batch.runId, tally.shapes, lastAt),
      ]),
      recordOrderBooks(tx, books),
    ]);
    if (prior.status === 'rejected') throw prior.reason;
    if (written.status === 'rejected') throw written.reason;
    const [, quarantined, shapes] = prior.value;
    return {
      recordsSeen: all.length,
      recordsWritten: written.value.inserted,
      ...tally.counts(),
      rowsByTable: {
        [getTableName(schema.orderbookSnapshots)]: written.value.inserted,
        [getViewConfig(schema.orderbookLevels).name]: written.value.levels,
        [getTableName(schema.rejectedRecords)]: quarantined,
        [getTableName(schema.upstreamShapes)]: shapes,
      },
    };
  });
}
