import type { EndpointRecordCounts } from '../sql/core/ingestRuns.js';

/** What one committed write did, summed into the run's totals. */
export interface WriteCounts {
  recordsSeen: number;
  recordsWritten: number;
  recordsRejected: number;
  /** Rows inserted per table (updates of last_seen_at / last_observed_at are not counted). */
  rowsByTable: Record<string, number>;
  /** Per endpoint label, e.g. "/events", "/events#markets", "/orderbook/{marketId}". */
  recordsByEndpoint: Record<string, EndpointRecordCounts>;
  /** Rejections by the kind of their reason. */
  rejectionReasons: Record<string, number>;
  /** Markets stored with a field the tables need (status, result, times) nulled by an unreadable value. */
  recordsEmptied: number;
  /** Those fields by name, each counted once per market. */
  emptiedFields: Record<string, number>;
}

export const emptyCounts = (): WriteCounts => ({
  recordsSeen: 0,
  recordsWritten: 0,
  recordsRejected: 0,
  rowsByTable: {},
  recordsByEndpoint: {},
  rejectionReasons: {},
  recordsEmptied: 0,
  emptiedFields: {},
});

export function addCounts(into: WriteCounts, add: WriteCounts): WriteCounts {
  into.recordsSeen += add.recordsSeen;
  into.recordsWritten += add.recordsWritten;
  into.recordsRejected += add.recordsRejected;
  into.recordsEmptied += add.recordsEmptied;
  sumInto(into.emptiedFields, add.emptiedFields);
  sumInto(into.rowsByTable, add.rowsByTable);
  sumInto(into.rejectionReasons, add.rejectionReasons);
  for (const [endpoint, c] of Object.entries(add.recordsByEndpoint)) {
    const to = (into.recordsByEndpoint[endpoint] ??= { accepted: 0, acceptedWithDrift: 0, rejected: 0 });
    to.accepted += c.accepted;
    to.acceptedWithDrift += c.acceptedWithDrift;
    to.rejected += c.rejected;
  }
  return into;
}

function sumInto(into: Record<string, number>, add: Record<string, number>): void {
  for (const [key, n] of Object.entries(add)) into[key] = (into[key] ?? 0) + n;
}

/** Keeps the last item of each key: a batch must not name a row twice. */
export function lastByKey<T>(items: Iterable<T>, key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(key(item), item);
  return [...byKey.values()];
}
