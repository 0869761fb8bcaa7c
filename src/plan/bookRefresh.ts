/** How sweeps of a given size and cadence refresh the books of the open markets. */
export interface BookRefresh {
  openMarkets: number;
  /** Books due now (never fetched, or older than the max age): the sweep takes them first, oldest first. */
  dueBooks: number;
  /** Sweeps it takes to fetch the books due now; 0 when none is. */
  sweepsToCatchUp: number;
  /** Mean time between two sweeps' starts. */
  sweepEverySec: number;
  /** Mean books a sweep fetches. */
  booksPerSweep: number;
  /** Every sweep fetched every open market's book. */
  everySweep: boolean;
  /** Mean time between two fetches of a book, over all open markets. */
  meanIntervalSec: number;
  /**
   * No book waits longer than this: the max age rounded up to whole sweeps, as a book becomes due
   * at the first sweep after it and due books go first. Null when the sweeps cannot keep every book
   * within the max age: then only due books are fetched, oldest first, each about every `meanIntervalSec`.
   */
  maxIntervalSec: number | null;
  /** Books a sweep fetches beyond the due ones, on average: they go to the highest-volume markets, which can then be refreshed up to every sweep. */
  spareBooksPerSweep: number;
}

export interface SweepCadence {
  openMarkets: number;
  dueBooks: number;
  sweepEverySec: number;
  booksPerSweep: number;
  /** Some sweep ended at its deadline with books left. */
  cutShort: boolean;
  maxAgeSec: number;
}

/**
 * The refresh the sweep's priority order gives, in steady state: due books (older than the max
 * age, or never fetched) first, oldest first, then by volume. A book fetched by one sweep is due at
 * the k-th sweep after, k = floor(maxAge / interval) + 1; so the due books of a sweep are at most
 * those it fetched k sweeps before, and every book is refreshed within k sweeps as long as k sweeps
 * fetch at least every open market once. What k sweeps fetch beyond that goes by volume.
 */
export function bookRefresh(c: SweepCadence): BookRefresh {
  const n = c.openMarkets;
  const books = c.booksPerSweep;
  const base = { openMarkets: n, dueBooks: c.dueBooks, sweepEverySec: c.sweepEverySec, booksPerSweep: books };
  const sweepsToCatchUp = c.dueBooks === 0 ? 0 : books > 0 ? Math.ceil(c.dueBooks / books) : Infinity;
  if (n === 0 || !c.cutShort) {
    return {
      ...base,
      sweepsToCatchUp,
      everySweep: true,
      meanIntervalSec: c.sweepEverySec,
      maxIntervalSec: c.sweepEverySec,
      spareBooksPerSweep: 0,
    };
  }
  const meanIntervalSec = books > 0 ? (n * c.sweepEverySec) / Math.min(books, n) : Infinity;
  const sweepsPerMaxAge = Math.floor(c.maxAgeSec / c.sweepEverySec) + 1;
  const keepsUp = books * sweepsPerMaxAge >= n;
  return {
    ...base,
    sweepsToCatchUp,
    everySweep: false,
    meanIntervalSec,
    maxIntervalSec: keepsUp ? sweepsPerMaxAge * c.sweepEverySec : null,
    spareBooksPerSweep: keepsUp ? books - n / sweepsPerMaxAge : 0,
  };
}
