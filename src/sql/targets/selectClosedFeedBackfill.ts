import { closedFeedBackfills } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(closedFeedBackfills);
const STATE = selection(closedFeedBackfills, ['provider', 'since', 'nextStart', 'total', 'eventsSeen', 'oldestEndedAt', 'finishedAt']);

export type ClosedFeedBackfill = RowOf<typeof STATE>;

/** Where a backfill of one provider from `since` stands; undefined when none was started. */
export async function selectClosedFeedBackfill(sql: Queryable, provider: string, since: Date): Promise<ClosedFeedBackfill | undefined> {
  const [row] = await sql<ClosedFeedBackfill[]>`
    select ${sql.unsafe(STATE.text)} from ${sql(table)}
    where ${sql(c.provider)} = ${provider} and ${sql(c.since)} = ${since}::timestamptz`;
  return row;
}
