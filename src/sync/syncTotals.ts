import type { ClientStats } from '../api/client/index.js';
import type { RunTotals } from '../sql/ingestRuns.js';
import { addCounts, emptyCounts, type WriteCounts } from '../store/writeCounts.js';

/** Accumulates what a cycle did: writes as they commit, and the requests it sent. */
export class SyncTotals {
  readonly writes: WriteCounts = emptyCounts();
  /** Detail or order-book fetches answered 404: the record is gone upstream. */
  notFound = 0;
  readonly #requestsAtStart: ClientStats['requests'];

  constructor(private readonly stats: () => ClientStats) {
    this.#requestsAtStart = structuredClone(stats().requests);
  }

  add(counts: WriteCounts): void {
    addCounts(this.writes, counts);
  }

  /** Requests sent since this cycle started, by endpoint and status. */
  requests(): RunTotals['requestsByStatus'] {
    const now = this.stats().requests;
    const out: RunTotals['requestsByStatus'] = {};
    for (const [endpoint, byStatus] of Object.entries(now)) {
      for (const [status, n] of Object.entries(byStatus)) {
        const delta = n - (this.#requestsAtStart[endpoint]?.[status] ?? 0);
        if (delta > 0) (out[endpoint] ??= {})[status] = delta;
      }
    }
    return out;
  }

  toRunTotals(): RunTotals {
    const requestsByStatus = this.requests();
    const requests = Object.values(requestsByStatus).reduce((n, s) => n + Object.values(s).reduce((a, b) => a + b, 0), 0);
    return { requests, requestsByStatus, ...this.writes };
  }
}
