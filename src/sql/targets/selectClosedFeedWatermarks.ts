import { closedFeedWatermarks } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(closedFeedWatermarks);
const MARK = selection(closedFeedWatermarks, ['provider', 'readThrough', 'pages', 'eventsSeen']);

export type ClosedFeedWatermark = RowOf<typeof MARK>;

/** How far GET /events/closed was read for each of these providers (absent: never read to its end). */
export async function selectClosedFeedWatermarks(sql: Queryable, providers: readonly string[]): Promise<ClosedFeedWatermark[]> {
  return sql<ClosedFeedWatermark[]>`
    select ${sql.unsafe(MARK.text)} from ${sql(table)}
    where ${sql(c.provider)} = any(${providers as string[]}::text[])
    order by ${sql(c.provider)}`;
}
