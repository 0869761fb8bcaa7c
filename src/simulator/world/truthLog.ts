/**
 * A bounded record of every true state the world served: each market's order book (its body as
 * GET /markets/{id}/orderbook sends it, before faults) and listed prices, from the moment it took
 * effect. Benchmarks compare what a pipeline stored with it. Oldest entries go first once
 * `limit` is reached (counted in `dropped`).
 */
export interface TruthEntry {
  /** When the state took effect, on the log's clock (ms). */
  atMs: number;
  marketId: string;
  /** The book's body as served, JSON; 'null' for a market without a book. */
  bookJson: string;
  /** Best YES bid and ask as listed, micro-USD. */
  bidMicroUsd: number;
  askMicroUsd: number;
  /** The change moved the listed prices (a trade) rather than deeper levels only. */
  movedTop: boolean;
}

export class TruthLog {
  readonly #limit: number;
  #entries: TruthEntry[] = [];
  #start = 0;
  #dropped = 0;

  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`truthLimit must be a positive integer, got ${limit}`);
    this.#limit = limit;
  }

  add(entry: TruthEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length - this.#start > this.#limit) {
      this.#start += 1;
      this.#dropped += 1;
      if (this.#start > 4096 && this.#start > this.#entries.length / 2) {
        this.#entries = this.#entries.slice(this.#start);
        this.#start = 0;
      }
    }
  }

  /** The entries held, oldest first. */
  entries(): readonly TruthEntry[] {
    return this.#entries.slice(this.#start);
  }

  /** Entries dropped to keep within the limit. */
  get dropped(): number {
    return this.#dropped;
  }

  clear(): void {
    this.#entries = [];
    this.#start = 0;
    this.#dropped = 0;
  }
}
