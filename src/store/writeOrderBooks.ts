import { getTableName } from 'drizzle-orm';
import { getViewConfig } from 'drizzle-orm/pg-core';

import type { Sql } from '../db/connect.js';
import { writeTransaction } from '../db/writeTransaction.js';
import type { Checked, OrderBook } from '../domain/types.js';
import * as schema from '../schema/index.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { ensureMonthPartitions } from '../sql/core/ensureMonthPartitions.js';
import { quarantineRecords } from '../sql/writes/quarantineRecords.js';
import { type HashedOrderBook, hashOrderBooks, type ObservedOrderBook, recordOrderBooks } from '../sql/writes/recordOrderBooks.js';
import { recordShapes } from '../sql/writes/recordShapes.js';
import { RecordTally } from './recordTally.js';
import { emptyCounts, lastByKey, type WriteCounts } from './writeCounts.js';

/** The books of one fetch and when they were received. */
export interface FetchedOrderBooks {
  books: readonly Checked<OrderBook>[];
  observedAt: Date;
  /**
   * Markets among these whose fetch a change signal brought forward (the sweep's movers), each
   * with when its signal was told, ms: counted apart as rate evidence, with the fetch's lag.
   */
  signalled?: ReadonlyMap<string, number>;
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

/** A batch ready for its transaction: tallied, one book a market, each hashed (prepareOrderBooks). */
export interface PreparedOrderBooks {
  batch: OrderBooksWrite;
  tally: RecordTally;
  books: HashedOrderBook[];
  recordsSeen: number;
  firstAt: Date;
  lastAt: Date;
}

/**
 * The client's share of a batch that needs no database: the tally of valid and invalid books, the
 * last book of each market, and their content hashes. Undefined for a batch of no fetch.
 */
export async function prepareOrderBooks(batch: OrderBooksWrite): Promise<PreparedOrderBooks | undefined> {
  const firstAt = batch.fetches[0]?.observedAt;
  const lastAt = batch.fetches.at(-1)?.observedAt;
  if (!firstAt || !lastAt) return undefined;
  const tally = new RecordTally();
  let recordsSeen = 0;
  const observed: ObservedOrderBook[] = [];
  for (const { books, observedAt, signalled } of batch.fetches) {
    recordsSeen += books.length;
    for (const checked of books) {
      if (!checked.ok) tally.rejected(batch.endpoint, checked.rejection);
      else {
        tally.accepted(batch.endpoint, checked.value);
        observed.push({ book: checked.value, observedAt, signalledAtMs: signalled?.get(checked.value.marketId) });
      }
    }
  }
  const books = await hashOrderBooks(lastByKey(observed, (o) => o.book.marketId));
  return { batch, tally, books, recordsSeen, firstAt, lastAt };
}

/**
 * Writes the order books of one or more fetches in one transaction; invalid ones are quarantined.
 * One batch on its own: the sweep writes through OrderBookWriter, which prepares the next batch
 * while this one commits; tests and the bench call this.
 */
export async function writeOrderBooks(sql: Sql, batch: OrderBooksWrite): Promise<WriteCounts> {
  const prepared = await prepareOrderBooks(batch);
  return prepared ? writePreparedOrderBooks(sql, prepared) : emptyCounts();
}

/** The transaction of a prepared batch (prepareOrderBooks). */
export function writePreparedOrderBooks(sql: Sql, prepared: PreparedOrderBooks): Promise<WriteCounts> {
  const { batch, tally, books, firstAt, lastAt } = prepared;
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
      // Also counts each fetch's outcome (changed or not), the sweep's evidence for the market's
      // change rate (prediction.book_fetches), in the comparison's own statement.
      recordOrderBooks(tx, books),
    ]);
    if (prior.status === 'rejected') throw prior.reason;
    if (written.status === 'rejected') throw written.reason;
    const [, quarantined, shapes] = prior.value;
    return {
      recordsSeen: prepared.recordsSeen,
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
