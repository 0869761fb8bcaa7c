import { upstreamDrift } from '../schema/index.js';
import type { Queryable } from './queryable.js';
import type { RowOf } from './sqlNames.js';
import { viewNames, viewSelection } from './viewNames.js';

const { view, col: c } = viewNames(upstreamDrift);
const SHAPE = viewSelection(upstreamDrift, [
  'endpoint',
  'firstSeenAt',
  'lastSeenAt',
  'recordsSeen',
  'isCurrent',
  'pathsAdded',
  'pathsRemoved',
]);

/** A record shape of analytics.upstream_drift; `pathsAdded`/`pathsRemoved` are against the endpoint's previous shape (null for its first). */
export type ShapeRow = RowOf<typeof SHAPE>;

/**
 * The record shapes first received at or after `since` (analytics.upstream_drift), per endpoint
 * in the order they appeared, at most `limit`, and how many there are in all.
 */
export async function selectShapesSince(sql: Queryable, since: Date, limit: number): Promise<{ shapes: ShapeRow[]; count: number }> {
  const rows = await sql<(ShapeRow & { shapeCount: number })[]>`
    select ${sql.unsafe(SHAPE.text)}, (count(*) over ())::int as "shapeCount"
    from ${sql(view)} where ${sql(c.firstSeenAt)} >= ${since}::timestamptz
    order by ${sql(c.firstSeenAt)}, ${sql(c.endpoint)}, ${sql(c.fingerprint)} limit ${limit}`;
  return { shapes: rows.map(({ shapeCount: _count, ...shape }) => shape), count: rows[0]?.shapeCount ?? 0 };
}
