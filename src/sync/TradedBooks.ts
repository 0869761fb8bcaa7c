import type { TradedBook } from '../domain/types.js';

/**
 * Markets that traded, told by the trade feed's job to the sweep running in the same process, so
 * that their books are fetched within seconds of the poll rather than at the next plan. Another
 * instance's sweep learns of them from the database when it plans (selectBookCandidates).
 */
export class TradedBooks {
  readonly #listeners = new Set<(books: readonly TradedBook[]) => void>();

  /** Tells every listener; a listener's failure is its own (it must not throw). */
  tell(books: readonly TradedBook[]): void {
    if (books.length === 0) return;
    for (const listener of this.#listeners) listener(books);
  }

  /** Listens until the returned function is called. */
  listen(listener: (books: readonly TradedBook[]) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
}
