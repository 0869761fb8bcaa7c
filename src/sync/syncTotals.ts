import { type RequestEvent, RequestTally } from '../api/client/index.js';
import type { RunTotals } from '../sql/core/ingestRuns.js';
import { addCounts, emptyCounts, type WriteCounts } from '../store/writeCounts.js';
import type { IntakeTotals } from './assessIntake.js';

/** Accumulates what one run did: writes as they commit, and every request attempt it sent. */
export class SyncTotals {
  readonly writes: WriteCounts = emptyCounts();
  /** Detail or order-book fetches answered 404: the record is gone upstream. */
  notFound = 0;
  /** Listings given up before their end (ApiPaginationError), as `provider/category: why`. */
  readonly cutListings: string[] = [];
  /** Order books the upstream could not fetch (502 after every retry), skipped (UnavailableBooks). */
  unavailable = 0;
  /** Listing pages of WHOLE_PAGE_MIN_RECORDS or more records that had every one of them rejected. */
  allRejectedPages = 0;
  /**
   * What an operator should hear of though the run succeeded (upkeep a reader's lock or an old
   * transaction put off): the service logs them as warnings, `sync` prints them.
   */
  readonly notices: string[] = [];
  readonly #requests = new RequestTally();

  add(counts: WriteCounts): void {
    addCounts(this.writes, counts);
  }

  notice(message: string): void {
    this.notices.push(message);
  }

  /** Counts one attempt of this run's own calls (not those of other jobs sharing the client). */
  readonly recordRequest = (event: RequestEvent): void => this.#requests.record(event);

  intake(): IntakeTotals {
    const { recordsByEndpoint, rejectionReasons, recordsEmptied, emptiedFields } = this.writes;
    return {
      recordsByEndpoint,
      rejectionReasons,
      emptied: recordsEmptied,
      emptiedFields,
      allRejectedPages: this.allRejectedPages,
      unavailable: this.unavailable,
      cutListings: this.cutListings,
    };
  }

  toRunTotals(): RunTotals {
    const requestsByStatus = this.#requests.byEndpoint();
    const requests = this.#requests.total;
    const { recordsSeen, recordsWritten, recordsRejected, rowsByTable, recordsByEndpoint } = this.writes;
    return { requests, requestsByStatus, recordsSeen, recordsWritten, recordsRejected, rowsByTable, recordsByEndpoint };
  }
}
