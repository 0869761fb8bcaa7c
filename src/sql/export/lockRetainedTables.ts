import { marketStateHistory, orderbookSnapshots, pricingSnapshots, trades } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

/** The tables retention drops months of (prediction.retention_candidates, 0014). */
const RETAINED = [pricingSnapshots, orderbookSnapshots, marketStateHistory, trades].map((t) => sqlNames(t).quotedTable);

/**
 * Holds ACCESS SHARE on the tables retention drops months of until the calling transaction ends.
 * Retention's drop needs ACCESS EXCLUSIVE on the table, so it waits for the transaction (and is
 * postponed past its lock timeout). Taken as the transaction's first statement, before its
 * snapshot: a DROP is not MVCC-safe, and one committed after the snapshot would empty a month the
 * snapshot's own prediction.dropped_partitions does not yet call dropped.
 */
export async function lockRetainedTables(sql: Queryable): Promise<void> {
  await sql.unsafe(`lock table ${RETAINED.join(', ')} in access share mode`);
}
