import type { Sql } from '../db/connect.js';
import type { WriteCounts } from './writeCounts.js';
import { type OrderBooksWrite, prepareOrderBooks, writePreparedOrderBooks } from './writeOrderBooks.js';

/**
 * Writes batches of order books one transaction after another, in the order given, and prepares
 * each batch (tally and hashes: prepareOrderBooks) while the database still works on the one
 * before. A lone writeOrderBooks call leaves the client idle while the database compares, takes
 * the last rows of its COPY and commits, and leaves the database idle while the client hashes;
 * back to back, each covers the other's wait (7-18 % less time than the same calls one at a time,
 * bench/levels.ts). A caller's fetching also goes on while a batch commits. At most one batch is
 * written while the next is prepared, so the writer holds two batches at most.
 *
 * Await each `write` before the next. A failed write is reported by the next `write` or by
 * `drain`, and the batches given after it are not written.
 */
export class OrderBookWriter {
  readonly #sql: Sql;
  readonly #onWritten: (counts: WriteCounts, batch: OrderBooksWrite) => void;
  #writing: Promise<void> | undefined;
  #failure: { error: unknown } | undefined;

  /** `onWritten` is called after each batch has committed, with what it wrote. */
  constructor(sql: Sql, onWritten: (counts: WriteCounts, batch: OrderBooksWrite) => void) {
    this.#sql = sql;
    this.#onWritten = onWritten;
  }

  /**
   * Prepares `batch`, waits for the write before it, and starts this one's write: resolves once
   * it has started, rejects with the error of an earlier write that failed.
   */
  async write(batch: OrderBooksWrite): Promise<void> {
    this.throwIfFailed();
    const prepared = await prepareOrderBooks(batch);
    await this.drain();
    if (!prepared) return;
    this.#writing = writePreparedOrderBooks(this.#sql, prepared)
      .then((counts) => this.#onWritten(counts, batch))
      .catch((error: unknown) => void (this.#failure ??= { error }));
  }

  /** Waits until every batch given has been written; rejects with the error of one that failed. */
  async drain(): Promise<void> {
    await this.#writing;
    this.#writing = undefined;
    this.throwIfFailed();
  }

  /** Throws the error of a write that failed, so that a caller stops before fetching more. */
  throwIfFailed(): void {
    if (this.#failure) throw this.#failure.error;
  }

  /** The error of the first write that failed, if one did. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }
}
