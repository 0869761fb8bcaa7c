/** What one committed write did, summed into the run's totals. */
export interface WriteCounts {
  recordsSeen: number;
  recordsWritten: number;
  recordsRejected: number;
  /** Rows inserted per table (updates of last_seen_at / last_observed_at are not counted). */
  rowsByTable: Record<string, number>;
}

export const emptyCounts = (): WriteCounts => ({ recordsSeen: 0, recordsWritten: 0, recordsRejected: 0, rowsByTable: {} });

export function addCounts(into: WriteCounts, add: WriteCounts): WriteCounts {
  into.recordsSeen += add.recordsSeen;
  into.recordsWritten += add.recordsWritten;
  into.recordsRejected += add.recordsRejected;
  for (const [table, n] of Object.entries(add.rowsByTable)) into.rowsByTable[table] = (into.rowsByTable[table] ?? 0) + n;
  return into;
}

/** Keeps the last item of each key: a batch must not name a row twice. */
export function lastByKey<T>(items: Iterable<T>, key: (item: T) => string): T[] {
  return [...new Map([...items].map((item) => [key(item), item] as const)).values()];
}
