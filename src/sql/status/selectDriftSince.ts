import { upstreamDrift } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import type { RowOf } from '../core/sqlNames.js';
import { viewNames, viewSelectionWithout } from '../core/viewNames.js';

const { view, col: c } = viewNames(upstreamDrift);
// Every column but the record that showed the change: a whole JSON document a row, not for a report.
const CHANGE = viewSelectionWithout(upstreamDrift, ['example']);

/** A change of analytics.upstream_drift: how records of an endpoint differ from what the service sends today. */
export type DriftRow = RowOf<typeof CHANGE>;

/**
 * The changes against today's contract received at or after `since` (analytics.upstream_drift),
 * each once, in the order they first appeared, at most `limit`, and how many there are in all.
 */
export async function selectDriftSince(sql: Queryable, since: Date, limit: number): Promise<{ changes: DriftRow[]; count: number }> {
  const rows = await sql<(DriftRow & { changeCount: number })[]>`
    select ${sql.unsafe(CHANGE.text)}, (count(*) over ())::int as "changeCount"
    from ${sql(view)} where ${sql(c.lastSeenAt)} >= ${since}::timestamptz
    order by ${sql(c.firstSeenAt)}, ${sql(c.endpoint)}, ${sql(c.kind)}, ${sql(c.path)}, ${sql(c.detail)} limit ${limit}`;
  return { changes: rows.map(({ changeCount: _count, ...change }) => change), count: rows[0]?.changeCount ?? 0 };
}
