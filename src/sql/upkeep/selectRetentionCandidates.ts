import type { Queryable } from '../core/queryable.js';

/** A partition that retention with a given horizon drops. */
export interface RetentionCandidate {
  tableName: string;
  /** Schema-qualified and quoted as SQL needs it. */
  partition: string;
  rangeStart: Date;
  rangeEnd: Date;
}

/**
 * The partitions retention with `horizon` drops, oldest first (prediction.retention_candidates,
 * 0014): those of the price and order-book history that end at or before it, and the state-history
 * months none of whose states is still in force then.
 */
export function selectRetentionCandidates(sql: Queryable, horizon: Date): Promise<RetentionCandidate[]> {
  return sql<RetentionCandidate[]>`
    select table_name as "tableName", partition::text as partition, range_start as "rangeStart", range_end as "rangeEnd"
    from prediction.retention_candidates(${horizon.toISOString()}::timestamptz)`;
}
