import { tradePolls } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col } = sqlNames(tradePolls);

export interface TradePoll {
  runId: number | null;
  polledAt: Date;
  tradesSeen: number;
  tradesNew: number;
  coversFrom: Date;
  coversTo: Date;
  gapBefore: boolean;
}

/** The latest poll's coverage (by covers_to), or null before the first poll. */
export async function selectLastTradePoll(sql: Queryable): Promise<{ coversTo: Date } | null> {
  const [row] = await sql<{ coversTo: Date }[]>`
    select ${sql(col.coversTo)} as "coversTo" from ${sql(table)} order by ${sql(col.coversTo)} desc limit 1`;
  return row ?? null;
}

/** Records one poll of the trade feed and what it covered. */
export async function recordTradePoll(sql: Queryable, poll: TradePoll): Promise<void> {
  await sql`
    insert into ${sql(table)} (${sql(col.runId)}, ${sql(col.polledAt)}, ${sql(col.tradesSeen)}, ${sql(col.tradesNew)},
      ${sql(col.coversFrom)}, ${sql(col.coversTo)}, ${sql(col.gapBefore)})
    values (${poll.runId}, ${poll.polledAt}, ${poll.tradesSeen}, ${poll.tradesNew}, ${poll.coversFrom}, ${poll.coversTo}, ${poll.gapBefore})`;
}
