import type { Checked, OrderBook } from '../domain/types.js';
import type { Sql } from '../db/connect.js';
import { acquireWriteLock, type WriteFence } from '../sql/acquireWriteLock.js';
import { quarantineRecords } from '../sql/quarantineRecords.js';
import { recordOrderBooks } from '../sql/recordOrderBooks.js';
import { lastByKey, type WriteCounts } from './writeCounts.js';

export interface OrderBooksWrite {
  runId: number | null;
  books: readonly Checked<OrderBook>[];
  observedAt: Date;
  /** Checked in the transaction before anything is written (see WriteFence). */
  fence?: WriteFence | undefined;
}

/** Writes a batch of order books in one transaction; invalid ones are quarantined. */
export async function writeOrderBooks(sql: Sql, batch: OrderBooksWrite): Promise<WriteCounts> {
  const books = lastByKey(batch.books.flatMap((b) => (b.ok ? [b.value] : [])), (b) => b.marketId);
  const rejected = batch.books.flatMap((b) => (b.ok ? [] : [{ ...b.rejection, endpoint: '/orderbook/{marketId}' }]));
  return sql.begin(async (tx) => {
    await acquireWriteLock(tx, batch.fence);
    const written = await recordOrderBooks(tx, books, batch.observedAt);
    const quarantined = await quarantineRecords(tx, batch.runId, rejected, batch.observedAt);
    return {
      recordsSeen: batch.books.length,
      recordsWritten: written.inserted,
      recordsRejected: rejected.length,
      rowsByTable: { orderbook_snapshots: written.inserted, orderbook_levels: written.levels, rejected_records: quarantined },
    };
  }) as Promise<WriteCounts>;
}
